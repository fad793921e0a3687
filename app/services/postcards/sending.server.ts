import { POSTCARD_COUNTRIES } from "~/domain/postcard";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { isPrintServiceError, type MailingStatus } from "~/integrations/print-mail/print-mail-port";
import { enqueue } from "~/jobs/queue.server";
import { db, type Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { signedFileUrl } from "~/lib/media-url.server";
import { findEventById } from "~/models/event.server";
import { findPostcard, listStalePostcardsInThePost, updatePostcard } from "~/models/postcard.server";
import { noteRefundReason } from "~/models/receipt.server";
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
      trackingUrl: mailing.trackingUrl,
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
    await enqueue("postcard-refund", { postcardId: card.id }, { db: tx });
  });
}

/**
 * The refund job: the payment back through the payment adapter (its key refunds once). Its organiser
 * hears of it from the refund's own notice, which says why (docs/decisions/048).
 */
export async function refundPostcard(postcardId: string) {
  const postcard = await findPostcard(db(), postcardId);
  if (!postcard || postcard.status !== "failed") return;
  if (postcard.paymentIntentId && postcard.amount > 0) {
    await noteRefundReason(
      db(),
      postcard.paymentIntentId,
      `Your postcard could not be sent: ${postcard.failure ?? "the print service gave up."}`,
    );
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
}

// The print service's states in the order a card goes through them; delivered and returned are final.
const MAILING_ORDER: readonly MailingStatus[] = ["created", "printed", "mailed", "delivered", "returned"];
const isFinal = (status: string | null) => status === "delivered" || status === "returned";

/**
 * Records what the print service says of a sent card (its webhook, a sweep, a page view), moving it
 * only forward: an event that comes late or twice changes nothing. Reaching delivered or returned
 * queues the organiser's mail in the same transaction. Returns the card as it now is.
 */
export async function recordMailing(
  tx: Db,
  postcardId: string,
  mailing: { status: MailingStatus; expectedDelivery: string | null; trackingUrl?: string | null },
) {
  const card = await findPostcard(tx, postcardId, { forUpdate: true });
  if (!card || card.status !== "sent" || isFinal(card.mailingStatus)) return card;
  const known = card.mailingStatus ? MAILING_ORDER.indexOf(card.mailingStatus as MailingStatus) : -1;
  const forward = MAILING_ORDER.indexOf(mailing.status) > known;
  const expectedDelivery = mailing.expectedDelivery ?? card.expectedDelivery;
  const trackingUrl = mailing.trackingUrl ?? card.trackingUrl;
  if (!forward && expectedDelivery === card.expectedDelivery && trackingUrl === card.trackingUrl) return card;
  const saved = await updatePostcard(tx, card.id, {
    mailingStatus: forward ? mailing.status : card.mailingStatus,
    expectedDelivery,
    trackingUrl,
  });
  if (forward && isFinal(mailing.status)) {
    await enqueue("postcard-mailing-mail", { postcardId: card.id, status: mailing.status }, { db: tx });
  }
  return saved;
}

/** The card as the print service last reported it, asked again while it is in the post. */
export async function refreshMailing(postcardId: string) {
  const postcard = await findPostcard(db(), postcardId);
  if (!postcard || postcard.status !== "sent" || !postcard.printId || isFinal(postcard.mailingStatus)) return postcard;
  try {
    const mailing = await printMailProvider().getPostcard(postcard.printId);
    if (!mailing) return postcard;
    return await db().transaction((tx) => recordMailing(tx, postcard.id, mailing));
  } catch (error) {
    if (isPrintServiceError(error)) return postcard;
    throw error;
  }
}

/**
 * The sweep: cards in the post that nothing has been heard of for POSTCARD_REFRESH_HOURS are asked
 * about again, so a webhook that never came does not leave a card stuck. Returns how many were asked.
 */
export async function refreshStalePostcards() {
  const before = new Date(Date.now() - env().POSTCARD_REFRESH_HOURS * 3600 * 1000);
  const stale = await listStalePostcardsInThePost(db(), before);
  for (const { id } of stale) await refreshMailing(id);
  return stale.length;
}

const MAILING_MAIL = {
  delivered: { subject: "Your postcard was delivered", paragraph: "The post has delivered the card" },
  returned: { subject: "Your postcard came back", paragraph: "The post could not deliver the card and returned it" },
} as const;

/** The organiser's mail when a card is delivered or returned, once per card and state. */
export async function mailMailingNews(postcardId: string, status: "delivered" | "returned") {
  const postcard = await findPostcard(db(), postcardId);
  const organiser = postcard ? await findUserById(db(), postcard.creatorId) : null;
  if (!postcard || !organiser) return;
  const event = await findEventById(db(), postcard.eventId, { withDeleted: true });
  const words = MAILING_MAIL[status];
  const mail = renderEmail({
    subject: words.subject,
    heading: words.subject,
    paragraphs: [
      `${words.paragraph}${postcard.address ? ` to ${postcard.address.name}` : ""}${event?.title ? `, for ${event.title}` : ""}.`,
      ...(status === "returned" ? ["Check the address; you can make a new card with the right one."] : []),
    ],
    action: event ? { label: "See your postcard", url: `${env().APP_URL}/e/${event.uuid}/postcards/${postcard.id}` } : undefined,
  });
  await deliverOnce(`postcard:${postcard.id}:${status}:email`, "email", organiser.email, () => sendMail({ to: organiser.email, ...mail }));
}
