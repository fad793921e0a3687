import crypto from "node:crypto";
import type { Receipt, User } from "drizzle/schema";
import { mailProduct } from "~/domain/commerce/mail-orders";
import { formatMoney } from "~/domain/commerce/money";
import { postedPhrase, treesPhrase } from "~/domain/commerce/receipts";
import { canAccessAccountOf, hasEditRights } from "~/domain/membership";
import { PRODUCT_NAME } from "~/domain/product";
import { enqueue } from "~/jobs/queue.server";
import { db, type Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { keysMatch } from "~/lib/event-keys.server";
import { notFound } from "~/lib/http.server";
import { sessionSecrets } from "~/lib/session-secret.server";
import { findEventById, listRecipients } from "~/models/event.server";
import { findGiftById, findGiftContribution } from "~/models/gift.server";
import { findMailOrder } from "~/models/mail-order.server";
import { findPostcard } from "~/models/postcard.server";
import { findOrInsertReceipt, findReceiptById, listReceiptsOfUser, type NewReceipt } from "~/models/receipt.server";
import { findTreeContribution } from "~/models/tree-contribution.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { headlineOf } from "~/services/events/event-views.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";
import { formatDay } from "./invoices.server";
import type { PaymentEffect } from "./payment-event-fields.server";
import { checkoutSession } from "./payment-event-schemas";

// Receipts of the payments that have no invoice of ours (docs/decisions/048): a chip-in towards a
// gift card, trees, a postcard, a DVD or a photo book. Each is recorded with its payment, in the
// webhook's transaction, and its e-mail queued there, once; its page opens to its payer's account
// (and staff), or to anyone holding the link the e-mail carries, which is unguessable.

/**
 * The key in a receipt's link, derived from its id with the server secret (as an invitee's is): a
 * retried e-mail rebuilds the same link, and nothing is stored that would open it.
 */
export const receiptTokenFor = (receiptId: string) =>
  crypto.createHmac("sha256", sessionSecrets()[0]!).update(`receipt:${receiptId}`).digest("base64url");

/** The receipt's page with its key: what the e-mails link to. */
export const receiptUrl = (receipt: Pick<Receipt, "id">) => `${env().APP_URL}/receipts/${receipt.id}?t=${receiptTokenFor(receipt.id)}`;

type Payer = Pick<NewReceipt, "kind" | "subjectId" | "userId" | "eventId" | "email" | "name" | "description">;

/** Who paid and for what, read from the row the checkout paid for; null when that row is gone. */
async function payerOf(tx: Db, effect: PaymentEffect): Promise<Payer | null> {
  switch (effect.effect) {
    case "gift-contribution": {
      const contribution = await findGiftContribution(tx, effect.contributionId);
      const gift = contribution ? await findGiftById(tx, contribution.giftId) : null;
      if (!contribution) return null;
      const { email, name } = contribution;
      return {
        kind: "gift_contribution",
        subjectId: contribution.id,
        userId: null,
        eventId: gift?.eventId ?? null,
        email,
        name,
        description: "a gift card",
      };
    }
    case "tree-contribution": {
      const contribution = await findTreeContribution(tx, effect.contributionId);
      if (!contribution) return null;
      const { email, name } = contribution;
      const description = treesPhrase(contribution.quantity);
      return {
        kind: "tree_contribution",
        subjectId: contribution.id,
        userId: null,
        eventId: contribution.eventId,
        email,
        name,
        description,
      };
    }
    case "postcard-paid": {
      const postcard = await findPostcard(tx, effect.postcardId);
      const organiser = postcard ? await findUserById(tx, postcard.creatorId) : null;
      if (!postcard || !organiser) return null;
      const description = "a printed postcard";
      return {
        kind: "postcard",
        subjectId: postcard.id,
        userId: organiser.id,
        eventId: postcard.eventId,
        email: organiser.email,
        name: null,
        description,
      };
    }
    case "mail-order": {
      const order = await findMailOrder(tx, effect.mailOrderId);
      const organiser = order ? await findUserById(tx, order.userId) : null;
      if (!order || !organiser) return null;
      const description = postedPhrase(mailProduct(order.kind).name, order.quantity);
      return {
        kind: "mail_order",
        subjectId: order.id,
        userId: organiser.id,
        eventId: order.eventId,
        email: organiser.email,
        name: null,
        description,
      };
    }
    default:
      return null;
  }
}

/**
 * A completed checkout for a contribution, a postcard or a posted order, once its own effect is
 * applied: its receipt, once per payment, with its e-mail queued in the same transaction (a webhook
 * told twice finds the receipt and queues nothing). Carts and memberships are invoiced instead.
 */
export async function recordCheckoutReceipt(tx: Db, effect: PaymentEffect, session: Record<string, unknown>, provider: string) {
  const { payment_intent: paymentId, amount_total: amount, currency: named } = checkoutSession.parse(session);
  const currency = named?.toLowerCase();
  if (!paymentId || amount === null || !currency) return;
  const payer = await payerOf(tx, effect);
  if (!payer) return;
  const { receipt, created } = await findOrInsertReceipt(tx, {
    ...payer,
    provider,
    providerPaymentId: paymentId,
    amount,
    currency,
    paidAt: new Date(),
  });
  if (created) await enqueue("payment-receipt", { receiptId: receipt.id }, { db: tx });
}

/** The Chorus a receipt's payment was for, by its headline ("Ana Silva's birthday"); null when it is gone. */
async function headlineFor(receipt: Receipt) {
  const event = receipt.eventId ? await findEventById(db(), receipt.eventId) : null;
  return event ? headlineOf(event, await listRecipients(db(), event.id)) : null;
}

const capitalised = (phrase: string) => phrase[0]!.toUpperCase() + phrase.slice(1);

/** The receipt job: its payer gets it once, however often the job runs. */
export async function sendPaymentReceipt(receiptId: string) {
  const receipt = await findReceiptById(db(), receiptId);
  if (!receipt) return;
  const paid = formatMoney(receipt.amount, receipt.currency);
  const headline = await headlineFor(receipt);
  const mail = renderEmail({
    subject: `Your ${PRODUCT_NAME} receipt: ${paid} for ${receipt.description}`,
    heading: receipt.name ? `Thank you, ${receipt.name}` : "Thank you for your payment",
    paragraphs: [
      `You paid ${paid} for ${receipt.description}${headline ? `, for ${headline}` : ""}, on ${formatDay(receipt.paidAt.toISOString())}.`,
      `${capitalised(receipt.description)}: ${paid}`,
      `Total paid: ${paid}`,
    ],
    action: { label: "See your receipt", url: receiptUrl(receipt) },
    footnote: "Keep this e-mail for your records.",
  });
  await deliverOnce(`payment-receipt:${receipt.id}`, "email", receipt.email, () => sendMail({ to: receipt.email, ...mail }));
}

/**
 * The receipt page (/receipts/{id}): for whoever holds its link (`token`), the payer's account, or
 * staff; to anyone else it does not exist.
 */
export async function receiptPage(viewer: User | null, receiptId: string, token: string | null) {
  const receipt = await findReceiptById(db(), receiptId);
  if (!receipt) throw notFound("There is no receipt at this address.");
  const byAccount = !!viewer && (receipt.userId ? canAccessAccountOf(viewer, receipt.userId) : hasEditRights(viewer));
  if (!byAccount && !keysMatch(token, receiptTokenFor(receipt.id))) throw notFound("There is no receipt at this address.");
  const money = (amount: number) => formatMoney(amount, receipt.currency);
  return {
    id: receipt.id,
    date: formatDay(receipt.paidAt.toISOString()),
    what: capitalised(receipt.description),
    headline: await headlineFor(receipt),
    payer: { name: receipt.name, email: receipt.email },
    seller: { name: PRODUCT_NAME, website: env().APP_URL },
    totalText: money(receipt.amount),
    refundedText: receipt.amountRefunded ? money(receipt.amountRefunded) : null,
    statusLabel: receipt.amountRefunded >= receipt.amount ? "Refunded" : receipt.amountRefunded > 0 ? "Partly refunded" : "Paid",
  };
}

/** An account's own receipts for the billing page, newest first. */
export async function receiptsOf(userId: string) {
  return (await listReceiptsOfUser(db(), userId)).map((receipt) => ({
    id: receipt.id,
    date: formatDay(receipt.paidAt.toISOString()),
    what: capitalised(receipt.description),
    amount: formatMoney(receipt.amount, receipt.currency),
  }));
}
