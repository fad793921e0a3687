// What the app needs from a card payment service. Stripe through its official SDK in production; with no
// keys, a local service that speaks the same API, so both go through the same code and the same webhook
// route (docs/decisions, "payments").
//
// Amounts are integer minor units (cents) with a lower-case ISO currency code; they always come from our
// own catalogue and carts, never from the browser.

export interface CheckoutLine {
  name: string;
  description?: string;
  /** Price of one unit in minor units. */
  unitAmount: number;
  currency: string;
  quantity: number;
}

interface CheckoutCommon {
  customerEmail: string;
  /** The payment service's customer, when we already have one for this user. */
  customerId?: string | null;
  /** Our own reference (a cart id, or a user id for a membership); comes back on the session and its events. */
  clientReferenceId: string;
  /**
   * Comes back on the session and its events: what the payment is for (e.g. `{ kind: "cart", cartId, cartVersion }`).
   * With `eventUuid`, the return page links back to that event.
   */
  metadata: Record<string, string>;
  /** Where the payer lands after paying; `{CHECKOUT_SESSION_ID}` is replaced with the session id. */
  successUrl: string;
  cancelUrl: string;
  /**
   * The same key always gives the same session: pressing Pay twice cannot make two. (Stripe refuses
   * a key sent again with other parameters, such as a later expiry: to go back to an open session,
   * retrieve it.)
   */
  idempotencyKey: string;
}

/**
 * A promo code's discount on a checkout, in the lines' currency: the payment page shows the lines at
 * their price, then this as a line of its own, then the total (Stripe: a one-off coupon in `discounts`).
 */
export interface CheckoutDiscount {
  /** What the page calls it: the code and what it takes off ("SPRING (20 % off)"). */
  name: string;
  /** Minor units taken off the lines' sum; never more than it. */
  amount: number;
}

export interface PaymentCheckoutInput extends CheckoutCommon {
  lines: CheckoutLine[];
  discount?: CheckoutDiscount;
}

export interface MembershipPlanPrice {
  /** Our plan key, e.g. "vip-monthly". */
  key: string;
  name: string;
  unitAmount: number;
  currency: string;
  interval: "month" | "year";
}

export interface SubscriptionCheckoutInput extends CheckoutCommon {
  plan: MembershipPlanPrice;
}

export interface CheckoutSessionRef {
  id: string;
  /** The hosted payment page to send the payer to. */
  url: string;
  /** After this moment the page can no longer be paid (its `expires_at`); null when the service did not say. */
  expiresAt: Date | null;
}

export interface CheckoutSessionView {
  id: string;
  mode: "payment" | "subscription";
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  amountTotal: number | null;
  currency: string | null;
  paymentIntentId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  /** The hosted payment page, while the session is open. */
  url: string | null;
}

export interface RefundInput {
  paymentIntentId: string;
  /** Minor units; the whole payment when omitted. */
  amount?: number;
  idempotencyKey: string;
  metadata?: Record<string, string>;
}

/**
 * A subscription as the payment service answers it, in its own shape: read by the same code that
 * reads its `customer.subscription.*` events.
 */
export type SubscriptionObject = Record<string, unknown> & { id: string };

/** A verified webhook event, shaped like Stripe's (`id`, `type`, `created`, `data.object`). */
export interface PaymentEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> & { id?: string } };
}

/** A webhook whose signature does not verify: the route answers 400 and changes nothing. */
export class InvalidWebhookSignatureError extends Error {
  override name = "InvalidWebhookSignatureError";
}

/** The payment service failed or timed out: nothing was charged that we know of; the payer may retry. */
export class PaymentServiceError extends Error {
  override name = "PaymentServiceError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

// The server entry and the Remix build each hold a copy of this module, and the provider (made
// once per process) may come from either: these errors are recognised by name, not class.
export const isInvalidWebhookSignature = (error: unknown): error is InvalidWebhookSignatureError =>
  error instanceof Error && error.name === "InvalidWebhookSignatureError";
export const isPaymentServiceError = (error: unknown): error is PaymentServiceError =>
  error instanceof Error && error.name === "PaymentServiceError";

export interface PaymentsProvider {
  readonly name: "stripe" | "local";
  createPaymentCheckout(input: PaymentCheckoutInput): Promise<CheckoutSessionRef>;
  createSubscriptionCheckout(input: SubscriptionCheckoutInput): Promise<CheckoutSessionRef>;
  /** Null when the payment service has no such session. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionView | null>;
  /** Where a member manages or cancels their membership. */
  createBillingPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /**
   * Cancels a subscription at the end of the period paid for (`cancelAtPeriodEnd`), or takes that
   * back before then; its `customer.subscription.updated` event follows.
   */
  setCancelAtPeriodEnd(input: { subscriptionId: string; cancelAtPeriodEnd: boolean; idempotencyKey: string }): Promise<SubscriptionObject>;
  refund(input: RefundInput): Promise<{ id: string; status: string }>;
  /** Checks the signature of a webhook's raw body; throws InvalidWebhookSignatureError when it does not verify. */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
}
