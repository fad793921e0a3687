import { z } from "zod";
import { isUuid } from "~/domain/uuid";

// The payment service's objects as its events hand them on (Stripe's, or the local payment
// service's copies of them), each read by one zod schema. None of them refuses an event: a field
// that is missing or of another type reads as none (an empty list, no metadata), and the code that
// applies the event decides what an event without it comes to (docs/decisions/056).

const someText = z.string().min(1);
/** A non-empty string, else none. */
const text = someText.nullable().catch(null);
/** A whole number (an amount in minor units, or Unix seconds), else none. */
const whole = z.number().refine(Number.isInteger).nullable().catch(null);
/** Our ids are UUIDs; anything else in an event's metadata names nothing of ours. */
export const ourId = z.string().refine(isUuid).nullable().catch(null);
/** Stripe sends an expandable field as its id, or as the object with an `id`; else none. */
const expandableId = z
  .union([someText, z.object({ id: someText }).transform((object) => object.id)])
  .nullable()
  .catch(null);
/** An object's metadata as it came (every value left to its reader), or none. */
const metadata = z.record(z.string(), z.unknown()).catch({});
const flag = z.boolean().catch(false);

/** An object whose every field reads as none when it is missing or not of its type; not an object reads as all none. */
function fields<Shape extends z.ZodRawShape>(shape: Shape) {
  const object = z.object(shape);
  return object.catch(() => object.parse({}));
}
/** A list, each item read by `item`; not a list reads as an empty one. */
const list = <Item extends z.ZodType>(item: Item) => z.array(item).catch([]);

/** A checkout session (`checkout.session.*`): what a cart, a posted order, an expired page and a receipt are read from. */
export const checkoutSessionShape = {
  id: text,
  /** Absent from the local payment service's older events, which are taken as paid. */
  payment_status: z.unknown().optional(),
  payment_intent: expandableId,
  customer: expandableId,
  amount_total: whole,
  currency: text,
  metadata,
};
export const checkoutSession = fields(checkoutSessionShape);
export type CheckoutSession = z.infer<typeof checkoutSession>;

/** What an expired checkout session's metadata names: the kind of page, and the row it was for. */
export const expiredCheckoutMetadata = fields({
  kind: text,
  cartId: ourId,
  postcardId: ourId,
  mailOrderId: ourId,
  giftContributionId: ourId,
  treeContributionId: ourId,
});

/** A refunded charge (`charge.refunded`): its payment, and the refunded total so far. */
export const refundedCharge = fields({
  payment_intent: expandableId,
  amount_refunded: whole,
  refunded: flag,
});
export type RefundedCharge = z.infer<typeof refundedCharge>;

/** What a membership's subscription or invoice carries in its metadata. */
export const membershipMetadata = fields({ userId: ourId, plan: text });

/** A subscription (`customer.subscription.*`, or the answer to a change we asked for). */
export const subscription = fields({
  id: text,
  customer: expandableId,
  metadata,
  status: text,
  current_period_end: whole,
  cancel_at: whole,
  cancel_at_period_end: flag,
  /** Newer versions of Stripe's API give the period's end on the subscription's item. */
  items: fields({ data: list(fields({ current_period_end: whole })) }),
});

/** An invoice (`invoice.paid`, `invoice.payment_failed`), in both the older and the newer shape of Stripe's API. */
export const invoice = fields({
  id: text,
  customer: expandableId,
  subscription: expandableId,
  subscription_details: fields({ metadata }),
  /** Newer versions of Stripe's API: the subscription and its metadata are under `parent`. */
  parent: fields({ subscription_details: fields({ subscription: expandableId, metadata }) }),
  amount_paid: whole,
  currency: text,
  tax: whole,
  subtotal: whole,
  status_transitions: fields({ paid_at: whole }),
  payment_intent: expandableId,
  charge: expandableId,
  /** Newer versions of Stripe's API: the invoice's payments. */
  payments: fields({ data: list(fields({ payment: fields({ payment_intent: expandableId, charge: expandableId }) })) }),
});
export type Invoice = z.infer<typeof invoice>;
