import type { MailOrder, User } from "drizzle/schema";
import { mailProduct } from "~/domain/commerce/mail-orders";
import { formatMoney } from "~/domain/commerce/money";
import { addressLines } from "~/domain/postal-address";
import { isFulfilmentServiceError, type FulfilmentOrder } from "~/integrations/fulfilment/fulfilment-port";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { enqueue } from "~/jobs/queue.server";
import { db, type Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, notFound } from "~/lib/http.server";
import { findEventById } from "~/models/event.server";
import { findMailOrder, listMailOrdersForStaff, listMailOrdersInProgress, updateMailOrder } from "~/models/mail-order.server";
import { noteRefundReason } from "~/models/receipt.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { recordStaffAction } from "~/services/staff/staff-actions.server";
import { expectedBy, mailOrderView } from "./orders.server";
import { fulfilmentProvider } from "./provider.server";

// A paid order's way to the post (docs/decisions/029-dvds-and-keepsakes-by-post.md). One keyed,
// leased job places it with the fulfilment service under the order's own key, so a worker that dies
// after placing and before saving makes the retry find the same order, never a second parcel. A
// schedule then follows it (received, printed, shipped with tracking) and tells the organiser by
// e-mail at each step; a failure ends as `failed` with a plain reason, for staff to retry or refund.

/** The fulfilment service's key for an order's one order there. */
export const externalIdOf = (orderId: string) => `chorus-mail-order:${orderId}`;

export const queuePlacement = (orderId: string, options: { db?: Db } = {}) =>
  enqueue("mail-order-place", { mailOrderId: orderId }, { db: options.db });

/** Where the service fetches the video and the label art: addresses of the app with the order's secret token. */
export function fileUrlsOf(order: Pick<MailOrder, "id" | "fileToken">) {
  const base = `${env().APP_URL}/mail-orders/${order.id}/${order.fileToken}`;
  return { videoUrl: `${base}/video.mp4`, artUrl: `${base}/label.pdf` };
}

const RANK: Record<MailOrder["status"], number> = {
  awaiting_payment: 0,
  abandoned: 0,
  paid: 1,
  received: 2,
  printed: 3,
  shipped: 4,
  failed: 5,
  refunded: 6,
};

/** Saves what the service says of the order; only ever forward. Mails the organiser when the step changed. */
async function recordProgress(order: MailOrder, vendor: string, placed: FulfilmentOrder) {
  const status = placed.status;
  const forward = RANK[status] > RANK[order.status] && order.status !== "failed" && order.status !== "refunded";
  const saved = await updateMailOrder(db(), order.id, {
    vendor,
    vendorOrderId: placed.id,
    trackingNumber: placed.trackingNumber ?? order.trackingNumber,
    trackingUrl: placed.trackingUrl ?? order.trackingUrl,
    expectedDelivery: placed.expectedDelivery ?? order.expectedDelivery,
    ...(forward ? { status } : {}),
    ...(forward && status === "failed" ? { failure: `The ${serviceWord(order)} could not make or post it.` } : {}),
  });
  if (forward && saved) await tellOrganiser(saved);
  return saved;
}

const serviceWord = (order: Pick<MailOrder, "kind">) => (order.kind === "dvd" ? "disc service" : "book printer");

/** The placement job. */
export async function placeMailOrder(orderId: string, { finalAttempt }: { finalAttempt: boolean }) {
  const order = await findMailOrder(db(), orderId);
  if (!order || order.status !== "paid") return;
  const event = await findEventById(db(), order.eventId, { withDeleted: true });
  const provider = fulfilmentProvider(order.kind);
  try {
    const placed = await provider.createOrder({
      externalId: externalIdOf(order.id),
      quantity: order.quantity,
      address: order.address,
      title: event?.title || "A Chorus",
      ...fileUrlsOf(order),
    });
    await recordProgress(order, provider.name, placed);
  } catch (error) {
    if (!isFulfilmentServiceError(error)) throw error;
    // Tried again with the queue's growing delays; the same key finds the same order.
    if (error.retryable && !finalAttempt) throw error;
    const failed = await updateMailOrder(db(), order.id, {
      status: "failed",
      vendor: provider.name,
      failure: `${error.message} Nothing was posted.`,
    });
    if (failed) await tellOrganiser(failed);
  }
}

/** The schedule's look at every order at a service and not yet posted. Answers how many moved. */
export async function followMailOrders() {
  let moved = 0;
  for (const order of await listMailOrdersInProgress(db())) {
    if (!order.vendorOrderId) continue;
    const provider = fulfilmentProvider(order.kind);
    try {
      const found = await provider.getOrder(order.vendorOrderId);
      if (!found) {
        console.warn(`mail order ${order.id}: the ${serviceWord(order)} has no order ${order.vendorOrderId}`);
        continue;
      }
      if (found.status !== order.status) moved += 1;
      await recordProgress(order, provider.name, found);
    } catch (error) {
      // The next run looks again.
      if (!isFulfilmentServiceError(error)) throw error;
      console.warn(`mail order ${order.id}: ${error.message}`);
    }
  }
  return moved;
}

const STEP_WORDS: Partial<Record<MailOrder["status"], { subject: string; paragraph: string }>> = {
  received: { subject: "is with the printer", paragraph: "The printer has your order and will start on it shortly." },
  printed: { subject: "is printed", paragraph: "It is made and packed, and goes in the post next." },
  shipped: { subject: "is in the post", paragraph: "It is on its way to the address below." },
  failed: {
    subject: "could not be made",
    paragraph: "Something went wrong at the printer, so nothing was posted. We will sort it out or refund you.",
  },
};

/** The organiser's e-mail for the step the order reached, once per step. */
async function tellOrganiser(order: MailOrder) {
  const words = STEP_WORDS[order.status];
  const organiser = await findUserById(db(), order.userId);
  if (!words || !organiser) return;
  const product = mailProduct(order.kind).name;
  const event = await findEventById(db(), order.eventId, { withDeleted: true });
  const copies = order.quantity === 1 ? "" : ` (${order.quantity} copies)`;
  const mail = renderEmail({
    subject: `Your ${product.toLowerCase()} ${words.subject}`,
    heading: `Your ${product.toLowerCase()}${copies} ${words.subject}`,
    paragraphs: [
      words.paragraph,
      ...(order.status === "shipped" && order.trackingNumber ? [`Tracking number: ${order.trackingNumber}`] : []),
      ...(order.status === "shipped" && order.trackingUrl ? [`Follow it: ${order.trackingUrl}`] : []),
      ...(expectedBy(order) ? [`Expected by ${expectedBy(order)}.`] : []),
      `To: ${addressLines(order.address).join(", ")}`,
      order.failure && order.status === "failed" ? order.failure : "",
    ].filter(Boolean),
    action: event ? { label: "See your order", url: `${env().APP_URL}/e/${event.uuid}/post` } : undefined,
  });
  await deliverOnce(`mail-order:${order.id}:${order.status}:email`, "email", organiser.email, () =>
    sendMail({ to: organiser.email, ...mail }),
  );
}

/** Staff: a failed order is placed again, under the same key (a service that did take it answers that order). */
export async function retryMailOrder(actor: User, orderId: string) {
  const order = await findMailOrder(db(), orderId);
  if (!order) throw notFound("There is no such order.");
  if (order.status !== "failed") throw new ApiError(409, "NOT_FAILED", "Only an order that failed can be tried again.");
  await db().transaction(async (tx) => {
    await updateMailOrder(tx, order.id, { status: "paid", failure: null });
    await queuePlacement(order.id, { db: tx });
    await recordStaffAction(actor, "mail_order_retried", { type: "mail_order", id: order.id }, {}, { tx });
  });
}

/** Staff: a failed order's payment goes back in full (keyed by the order, so a double press refunds once). */
export async function refundMailOrder(actor: User, orderId: string) {
  const order = await findMailOrder(db(), orderId);
  if (!order) throw notFound("There is no such order.");
  if (order.status !== "failed") throw new ApiError(409, "NOT_FAILED", "Only an order that failed can be refunded here.");
  if (!order.paymentIntentId) throw new ApiError(409, "NOT_PAID", "This order has no payment to refund.");
  const amount = order.totalAmount - order.amountRefunded;
  // The organiser hears of it from the refund's own notice, which says why (docs/decisions/048).
  await noteRefundReason(db(), order.paymentIntentId, `Your order could not be made: ${order.failure ?? "the printer gave up."}`);
  try {
    await paymentsProvider().refund({
      paymentIntentId: order.paymentIntentId,
      amount,
      idempotencyKey: `mail-order-refund:${order.id}`,
      metadata: { kind: "mail-order", mailOrderId: order.id },
    });
  } catch (error) {
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    throw error;
  }
  await updateMailOrder(db(), order.id, { status: "refunded", amountRefunded: order.totalAmount });
  await recordStaffAction(
    actor,
    "mail_order_refunded",
    { type: "mail_order", id: order.id },
    { amount, currency: order.currency },
    { idempotencyKey: `mail-order-refund:${order.id}` },
  );
  return { refunded: formatMoney(amount, order.currency) };
}

/** For staff: the latest orders past payment, failed ones first. */
export async function mailOrdersForStaff() {
  return (await listMailOrdersForStaff(db())).map(({ order, eventTitle, eventUuid, organiserEmail }) => ({
    ...mailOrderView(order),
    vendor: order.vendor,
    vendorOrderId: order.vendorOrderId,
    eventTitle: eventTitle || "Untitled Chorus",
    eventUuid,
    organiserEmail,
  }));
}
