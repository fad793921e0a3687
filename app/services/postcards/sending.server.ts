import { formatMoney } from "~/domain/commerce/money";
import { POSTCARD_COUNTRIES } from "~/domain/postcard";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { isPrintServiceError } from "~/integrations/print-mail/print-mail-port";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { signedFileUrl } from "~/lib/media-url.server";
import { findEventById } from "~/models/event.server";
import { findPostcard, updatePostcard } from "~/models/postcard.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { printMailProvider } from "./provider.server";

// Sending a paid card (docs/decisions/030-postcards.md): one keyed, leased job hands it to the print
// service with the card's id as the Idempotency-Key, so a worker that dies after the service took it
// and before we saved that finds the same mailing on the retry. Failures are retried with the queue's
// growing delays; a refusal, or the last attempt, leaves the card failed, refunded and the organiser told.

/** Public links to the print files, signed; the print service fetches them when it takes the card. */
export function printFileUrls(postcardId: string) {
  const base = env().APP_URL;
  return {
    front: new URL(signedFileUrl(`/postcards/${postcardId}/print/front.pdf`), base).toString(),
    back: new URL(signedFileUrl(`/postcards/${postcardId}/print/back.pdf`), base).toString(),
  };
}

function returnAddress() {
  const settings = env();
  return {
    name: settings.POSTCARD_RETURN_NAME,
    line1: settings.POSTCARD_RETURN_LINE1,
    line2: null,
    city: settings.POSTCARD_RETURN_CITY,
    region: settings.POSTCARD_RETURN_REGION,
    postalCode: settings.POSTCARD_RETURN_POSTAL_CODE,
    country: "US",
  };
}

/** The send job. */
export async function sendPostcard(postcardId: string, { finalAttempt }: { finalAttempt: boolean }) {
  const postcard = await findPostcard(db(), postcardId);
  if (!postcard || postcard.status !== "paid") return;
  if (!postcard.address || !POSTCARD_COUNTRIES.has(postcard.address.country)) {
    await failPostcard(postcard.id, "The address cannot be posted to.");
    return;
  }
  const urls = printFileUrls(postcard.id);
  try {
    const provider = printMailProvider();
    const mailing = await provider.createPostcard({
      to: postcard.address,
      from: returnAddress(),
      frontUrl: urls.front,
      backUrl: urls.back,
      description: `Chorus postcard ${postcard.id}`,
      idempotencyKey: postcard.id,
    });
    await updatePostcard(db(), postcard.id, {
      status: "sent",
      printProvider: provider.name,
      printId: mailing.id,
      mailingStatus: mailing.status,
      expectedDelivery: mailing.expectedDelivery,
      sentAt: new Date(),
    });
  } catch (error) {
    if (!isPrintServiceError(error)) throw error;
    if (error.retryable && !finalAttempt) throw error;
    await failPostcard(postcard.id, `${error.message} The card was not sent.`);
  }
}

/** Marks a card failed for good and queues its refund, once. */
export async function failPostcard(postcardId: string, failure: string) {
  await db().transaction(async (tx) => {
    const card = await findPostcard(tx, postcardId, { forUpdate: true });
    if (!card || card.status !== "paid") return;
    await updatePostcard(tx, card.id, { status: "failed", failure });
    await enqueue("postcard-refund", { postcardId: card.id }, { singletonKey: `postcard-refund:${card.id}`, db: tx });
  });
}

/** The refund job: the payment back through the payment adapter (its key refunds once), then a mail. */
export async function refundPostcard(postcardId: string) {
  const postcard = await findPostcard(db(), postcardId);
  if (!postcard || postcard.status !== "failed") return;
  if (postcard.paymentIntentId && postcard.amount > 0) {
    try {
      await paymentsProvider().refund({
        paymentIntentId: postcard.paymentIntentId,
        amount: postcard.amount,
        idempotencyKey: `postcard-refund:${postcard.id}`,
        metadata: { kind: "postcard", postcardId: postcard.id },
      });
    } catch (error) {
      if (isPaymentServiceError(error)) throw new Error(`postcard ${postcard.id}: ${error.message}`);
      throw error;
    }
  }
  await updatePostcard(db(), postcard.id, { status: "refunded", refundedAt: new Date() });
  const organiser = await findUserById(db(), postcard.creatorId);
  const event = await findEventById(db(), postcard.eventId, { withDeleted: true });
  if (!organiser) return;
  const mail = renderEmail({
    subject: `Your postcard could not be sent; ${formatMoney(postcard.amount, postcard.currency.toUpperCase())} is refunded`,
    heading: "Your postcard could not be sent",
    paragraphs: [
      `We could not print and post the card${postcard.address ? ` to ${postcard.address.name}` : ""}${event?.title ? ` for ${event.title}` : ""}: ${postcard.failure ?? "the print service gave up."}`,
      "We have refunded it in full to the card you paid with; it can take a few days to show.",
    ],
  });
  await deliverOnce(`postcard-refund:${postcard.id}:email`, "email", organiser.email, () => sendMail({ to: organiser.email, ...mail }));
}

/** The card as the print service last reported it, asked again when it is in the post. */
export async function refreshMailing(postcardId: string) {
  const postcard = await findPostcard(db(), postcardId);
  if (!postcard || postcard.status !== "sent" || !postcard.printId || postcard.mailingStatus === "delivered") return postcard;
  try {
    const mailing = await printMailProvider().getPostcard(postcard.printId);
    if (!mailing || mailing.status === postcard.mailingStatus) return postcard;
    return await updatePostcard(db(), postcard.id, { mailingStatus: mailing.status, expectedDelivery: mailing.expectedDelivery });
  } catch (error) {
    if (isPrintServiceError(error)) return postcard;
    throw error;
  }
}
