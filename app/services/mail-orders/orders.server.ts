import crypto from "node:crypto";
import type { Event, MailOrder, User } from "drizzle/schema";
import { z } from "zod";
import {
  addressOf,
  MAIL_ORDER_STATUS_TEXT,
  mailOrderInput,
  mailProduct,
  priceOf,
  POST_COUNTRIES,
  POSTAGE_ZONES,
  PRODUCT_OF,
  type MailOrderKind,
} from "~/domain/commerce/mail-orders";
import { CURRENCY, formatMoney } from "~/domain/commerce/money";
import { formatDeliveryDay } from "~/domain/delivery-estimate";
import { canManageEvent } from "~/domain/event-permissions";
import { addressLines } from "~/domain/postal-address";
import type { ViewerRole } from "~/domain/viewer-role";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, isApiError, notFound, parseWith } from "~/lib/http.server";
import {
  findLastMailOrderAddress,
  findMailOrder,
  insertMailOrder,
  listMailOrdersOfEvent,
  reopenMailOrder,
  updateMailOrder,
} from "~/models/mail-order.server";
import { listCountries } from "~/services/commerce/countries.server";
import { openEvent } from "~/services/events/events.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import { openSessionUrl } from "~/services/payments/open-session.server";
import { paymentsProvider } from "~/services/payments/provider.server";

// Ordering a DVD or a photo book of a published Chorus (docs/decisions/029-dvds-and-keepsakes-by-post.md):
// only those who manage the Chorus (404 for anyone else, as for a Chorus they cannot see), only once
// its video is published (409 before). The order is paid through the same checkout as carts; only the
// payment webhook marks it paid, and a job places it with the fulfilment service.

const NOT_FOUND = "There is no Chorus with this id.";

/** The event when `user` manages it: 404 for anyone else. */
async function managedEvent(open: () => Promise<{ event: Event; viewer: { role: ViewerRole } }>) {
  let opened;
  try {
    opened = await open();
  } catch (error) {
    if (isApiError(error) && error.status < 500) throw notFound(NOT_FOUND);
    throw error;
  }
  if (!canManageEvent(opened.viewer.role) || opened.event.deletedAt) throw notFound(NOT_FOUND);
  return opened.event;
}

export const managedEventById = (user: User | null, id: string) => managedEvent(() => openEvent(user, id));
export const managedEventByUuid = (user: User | null, uuid: string | undefined) => managedEvent(() => openEventByUuid(user, uuid, {}));

/** The published video an order is made from; 409 NOT_PUBLISHED before there is one. */
function publishedVideoOf(event: Event) {
  if (!event.publishedMedia) {
    throw new ApiError(409, "NOT_PUBLISHED", "A DVD or a photo book is made from the published video: publish the video first.");
  }
  return event.publishedMedia;
}

/**
 * Starts an order: a row awaiting payment, and a checkout session at the payment service whose
 * metadata names it. Bad input is a 400 naming the fields. Returns the order and where to pay.
 */
export async function startMailOrder(user: User, event: Event, kind: MailOrderKind, input: unknown) {
  const publishedMediaId = publishedVideoOf(event);
  const fields = parseWith(mailOrderInput, input);
  const address = addressOf(fields);
  const price = priceOf(kind, fields.quantity, address.country);
  const order = await insertMailOrder(db(), {
    eventId: event.id,
    userId: user.id,
    kind,
    productKey: PRODUCT_OF[kind],
    quantity: fields.quantity,
    ...price,
    address,
    publishedMediaId,
    fileToken: crypto.randomBytes(24).toString("base64url"),
  });
  return { order: mailOrderView(order), paymentUrl: await openCheckout(user, event, order) };
}

/** A payment page for the order, keyed by the order and its attempt, and saved on it; where to pay. */
async function openCheckout(user: User, event: Event, order: MailOrder) {
  const provider = paymentsProvider();
  const base = env().APP_URL;
  const product = mailProduct(order.kind);
  try {
    const session = await provider.createPaymentCheckout({
      customerEmail: user.email,
      clientReferenceId: order.id,
      metadata: { kind: "mail-order", mailOrderId: order.id, eventUuid: event.uuid },
      successUrl: `${base}/e/${event.uuid}/post`,
      cancelUrl: `${base}/e/${event.uuid}/post`,
      // A page that expired unpaid is not reopened: each new attempt has a key of its own.
      idempotencyKey: order.checkoutAttempts ? `mail-order:${order.id}:${order.checkoutAttempts}` : `mail-order:${order.id}`,
      lines: [
        { name: product.name, unitAmount: order.unitAmount, currency: order.currency, quantity: order.quantity },
        { name: `Postage to ${order.address.country}`, unitAmount: order.shippingAmount, currency: order.currency, quantity: 1 },
      ],
    });
    await updateMailOrder(db(), order.id, { provider: provider.name, checkoutSessionId: session.id });
    return session.url;
  } catch (error) {
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    throw error;
  }
}

const payInput = z.object({ orderId: z.uuid({ error: "Choose an order." }) }).loose();

/**
 * Pay for an order not paid yet, from the order page: back to its payment page while that is open,
 * or, once it expired unpaid (abandoned), a new one for the same order at the same price.
 */
export async function payForMailOrder(user: User | null, uuid: string | undefined, form: Record<string, unknown>) {
  const event = await managedEventByUuid(user, uuid);
  const { orderId } = parseWith(payInput, form);
  const order = await findMailOrder(db(), orderId);
  if (!user || !order || order.eventId !== event.id) throw notFound("There is no such order.");
  if (order.status === "awaiting_payment") {
    const open = await openSessionUrl(order.checkoutSessionId);
    if (open) return open;
  }
  const reopened =
    order.status === "abandoned" ? await reopenMailOrder(db(), order.id) : order.status === "awaiting_payment" ? order : null;
  if (!reopened) throw new ApiError(409, "ALREADY_PAID", "This order is already paid for.");
  return openCheckout(user, event, reopened);
}

/** With the service, made or posted: neither before it is paid nor once it failed or was refunded. */
const onItsWay = (order: Pick<MailOrder, "status">) =>
  order.status === "received" || order.status === "printed" || order.status === "shipped";

/** When the service expects it delivered, in words, while it is on its way. */
export function expectedBy(order: Pick<MailOrder, "status" | "expectedDelivery">) {
  return onItsWay(order) && order.expectedDelivery ? formatDeliveryDay(order.expectedDelivery) : null;
}

/** An order as the organiser and the API see it. */
export function mailOrderView(order: MailOrder) {
  return {
    id: order.id,
    kind: order.kind,
    product: mailProduct(order.kind).name,
    quantity: order.quantity,
    status: order.status,
    statusText: MAIL_ORDER_STATUS_TEXT[order.status],
    address: order.address,
    addressLines: addressLines(order.address),
    unitAmount: order.unitAmount,
    shippingAmount: order.shippingAmount,
    totalAmount: order.totalAmount,
    currency: order.currency,
    total: formatMoney(order.totalAmount, order.currency),
    trackingNumber: order.trackingNumber,
    trackingUrl: order.trackingUrl,
    expectedDelivery: order.expectedDelivery,
    expectedBy: expectedBy(order),
    onItsWay: onItsWay(order),
    failure: order.failure,
    createdAt: order.createdAt.toISOString(),
  };
}

export type MailOrderView = ReturnType<typeof mailOrderView>;

/**
 * The event's orders for its page: those paid for, those still waiting for a payment started in the
 * last day, and those whose payment page expired in the last week (to pay again).
 */
export async function mailOrdersOf(event: Event) {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  return (await listMailOrdersOfEvent(db(), event.id))
    .filter((o) =>
      o.status === "awaiting_payment" ? o.createdAt.getTime() > dayAgo : o.status !== "abandoned" || o.updatedAt.getTime() > weekAgo,
    )
    .map(mailOrderView);
}

const chosenKind = z.enum(["dvd", "keepsake"]).catch("dvd");

/**
 * What the order page shows: the two products with their prices, the countries we post to, the
 * orders so far. Arriving from the cart's offer (`?kind=`), that product is chosen; the address is
 * the one the organiser last ordered to, so a second order needs no typing.
 */
export async function mailOrderPage(user: User | null, uuid: string | undefined, url?: URL) {
  const event = await managedEventByUuid(user, uuid);
  const kinds: MailOrderKind[] = ["dvd", "keepsake"];
  const lastAddress = user ? await findLastMailOrderAddress(db(), user.id) : null;
  return {
    uuid: event.uuid,
    chosen: chosenKind.parse(url?.searchParams.get("kind") ?? undefined),
    address: lastAddress ? { ...lastAddress, line2: lastAddress.line2 ?? "", region: lastAddress.region ?? "" } : null,
    title: event.title,
    published: Boolean(event.publishedMedia),
    products: kinds.map((kind) => {
      const product = mailProduct(kind);
      return { kind, name: product.name, gives: product.gives, price: formatMoney(product.unitAmount, product.currency) };
    }),
    countries: listCountries().filter((c) => POST_COUNTRIES.has(c.code)),
    postage: POSTAGE_ZONES.map((zone) => ({
      name: zone.name,
      first: formatMoney(zone.first, CURRENCY),
      more: formatMoney(zone.more, CURRENCY),
    })),
    orders: await mailOrdersOf(event),
  };
}

const kindInput = z.object({ kind: z.enum(["dvd", "keepsake"], { error: "Choose a DVD or a photo book." }) }).loose();

/** The page's form: the kind, then the order's own fields. Answers where to pay. */
export async function startMailOrderFromPage(user: User | null, uuid: string | undefined, form: Record<string, unknown>) {
  const event = await managedEventByUuid(user, uuid);
  const { kind } = parseWith(kindInput, form);
  if (!user) throw notFound(NOT_FOUND);
  return startMailOrder(user, event, kind, form);
}
