import Stripe from "stripe";
import {
  InvalidWebhookSignatureError,
  PaymentServiceError,
  type CheckoutSessionRef,
  type CheckoutSessionView,
  type PaymentEvent,
  type PaymentsProvider,
  type SubscriptionObject,
} from "./payments-port";

export interface StripeSettings {
  /** "local" when the app's own Stripe-compatible service is behind it. */
  name: PaymentsProvider["name"];
  secretKey: string;
  webhookSecret: string;
  /** Where requests go; Stripe's own API when unset. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  /** A path before `/v1/...` (the local service lives under one). */
  basePath?: string;
  timeoutMs: number;
  networkRetries: number;
  /** How long a payment page stays open before it expires unpaid (its `checkout.session.expired` event). */
  checkoutExpirySeconds: number;
}

// Stripe keeps a session open for 30 minutes at least and 24 hours at most (its default).
const STRIPE_MIN_EXPIRY = 1800;
const STRIPE_MAX_EXPIRY = 86_400;

/** The session's `expires_at`: omitted for Stripe's own 24 h; the local service takes any span (tests shorten it). */
function expiresAt(settings: StripeSettings) {
  const seconds = settings.checkoutExpirySeconds;
  if (settings.name === "stripe" && seconds >= STRIPE_MAX_EXPIRY) return {};
  const span = settings.name === "stripe" ? Math.max(STRIPE_MIN_EXPIRY, seconds) : seconds;
  return { expires_at: Math.floor(Date.now() / 1000) + span };
}

/**
 * The SDK's own Node HTTP client, with every request's path put under `basePath`: the SDK has no
 * setting for it, and the local service answers under /local-payments rather than at the site root.
 */
function underBasePath(basePath: string): Stripe.HttpClient {
  const node = Stripe.createNodeHttpClient();
  return {
    getClientName: () => node.getClientName(),
    makeRequest: (host, port, path, ...rest) => node.makeRequest(host, port, `${basePath}${path}`, ...rest),
  };
}

const stripeClient = (settings: StripeSettings) =>
  new Stripe(settings.secretKey, {
    host: settings.host,
    port: settings.port,
    protocol: settings.protocol,
    timeout: settings.timeoutMs,
    maxNetworkRetries: settings.networkRetries,
    telemetry: false,
    appInfo: { name: "Chorus" },
    ...(settings.basePath ? { httpClient: underBasePath(settings.basePath) } : {}),
  });

const NOTHING_REFUNDED = "Nothing was refunded";
const NOTHING_CHANGED = "Your membership is unchanged";

/** Stripe's failures as the port's: a plain message, and whether trying again may work. */
function asPaymentServiceError(error: unknown, nothing = "Nothing was charged"): PaymentServiceError {
  if (!(error instanceof Stripe.errors.StripeError)) {
    return new PaymentServiceError(`The payment service could not be reached. ${nothing}; please try again.`, true);
  }
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new PaymentServiceError(`The payment service did not answer in time. ${nothing}; please try again.`, true);
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) {
    return new PaymentServiceError(`The payment service is busy right now. ${nothing}; please try again in a minute.`, true);
  }
  if (error instanceof Stripe.errors.StripeAPIError || (error.statusCode ?? 0) >= 500) {
    return new PaymentServiceError(`The payment service had a problem on its side. ${nothing}; please try again.`, true);
  }
  if (error instanceof Stripe.errors.StripeCardError) {
    return new PaymentServiceError(error.message || "The card was declined.", false);
  }
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
    console.error("The payment service refused our credentials:", error.message);
    return new PaymentServiceError(`Payments are not available right now. ${nothing}.`, false);
  }
  // Our request was wrong (a refund larger than the payment, a missing customer): the caller's to handle.
  console.warn("The payment service refused a request:", error.type, error.message);
  if (nothing === NOTHING_REFUNDED) return new PaymentServiceError(`The payment service refused this refund: ${error.message}`, false);
  if (nothing === NOTHING_CHANGED) return new PaymentServiceError(`The payment service refused this change: ${error.message}`, false);
  return new PaymentServiceError(`The payment service refused this payment. ${nothing}.`, false);
}

async function call<T>(run: () => Promise<T>, nothing?: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asPaymentServiceError(error, nothing);
  }
}

const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === "string" ? value : value.id);

/** `value` when it is one of `known` (the SDK's enums are open to values newer than it), else null. */
const oneOf = <T extends string>(value: string | null, known: readonly T[]): T | null =>
  (known as readonly string[]).includes(value ?? "") ? (value as T) : null;

function sessionView(session: Stripe.Checkout.Session): CheckoutSessionView {
  return {
    id: session.id,
    mode: session.mode === "subscription" ? "subscription" : "payment",
    status: oneOf(session.status, ["complete", "expired"] as const) ?? "open",
    paymentStatus: oneOf(session.payment_status, ["paid", "no_payment_required"] as const) ?? "unpaid",
    amountTotal: session.amount_total,
    currency: session.currency,
    paymentIntentId: idOf(session.payment_intent),
    subscriptionId: idOf(session.subscription),
    customerId: idOf(session.customer),
    clientReferenceId: session.client_reference_id,
    url: session.url ?? null,
    metadata: { ...(session.metadata ?? {}) },
  };
}

const sessionRef = (session: Stripe.Checkout.Session): CheckoutSessionRef => {
  if (!session.url) throw new PaymentServiceError("The payment service gave no payment page. Nothing was charged; please try again.", true);
  return {
    id: session.id,
    url: session.url,
    expiresAt: typeof session.expires_at === "number" ? new Date(session.expires_at * 1000) : null,
  };
};

// Stripe's coupon names are at most 40 characters.
const COUPON_NAME_MAX = 40;

/** Stripe through its official SDK; also the local service's client, which speaks the same API. */
export function stripePaymentsProvider(settings: StripeSettings): PaymentsProvider {
  const stripe = stripeClient(settings);
  const payer = (input: { customerId?: string | null; customerEmail: string }) =>
    input.customerId ? { customer: input.customerId } : input.customerEmail ? { customer_email: input.customerEmail } : {};

  return {
    name: settings.name,

    createPaymentCheckout: (input) =>
      call(async () => {
        // A discount is a one-off coupon of exactly our amount (not Stripe's own percentage, which
        // would round its own way), so the page shows the lines at their price, the code's line
        // and our total to the cent. Keyed with the session, so pressing Pay again reuses both.
        const coupon = input.discount
          ? await stripe.coupons.create(
              {
                amount_off: input.discount.amount,
                currency: input.lines[0]!.currency,
                duration: "once",
                max_redemptions: 1,
                name: input.discount.name.slice(0, COUPON_NAME_MAX),
              },
              { idempotencyKey: `${input.idempotencyKey}:coupon` },
            )
          : null;
        return sessionRef(
          await stripe.checkout.sessions.create(
            {
              mode: "payment",
              line_items: input.lines.map((line) => ({
                quantity: line.quantity,
                price_data: {
                  currency: line.currency,
                  unit_amount: line.unitAmount,
                  product_data: { name: line.name, ...(line.description ? { description: line.description } : {}) },
                },
              })),
              ...(coupon ? { discounts: [{ coupon: coupon.id }] } : {}),
              ...payer(input),
              client_reference_id: input.clientReferenceId,
              metadata: input.metadata,
              // The charge and its refund events carry what the payment was for too.
              payment_intent_data: { metadata: input.metadata },
              success_url: input.successUrl,
              cancel_url: input.cancelUrl,
              ...expiresAt(settings),
            },
            { idempotencyKey: input.idempotencyKey },
          ),
        );
      }),

    createSubscriptionCheckout: (input) =>
      call(async () =>
        sessionRef(
          await stripe.checkout.sessions.create(
            {
              mode: "subscription",
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: input.plan.currency,
                    unit_amount: input.plan.unitAmount,
                    recurring: { interval: input.plan.interval },
                    product_data: { name: input.plan.name, metadata: { plan: input.plan.key } },
                  },
                },
              ],
              ...payer(input),
              client_reference_id: input.clientReferenceId,
              metadata: input.metadata,
              // The subscription's own events (renewals, cancellation) carry it too.
              subscription_data: { metadata: { ...input.metadata, plan: input.plan.key } },
              success_url: input.successUrl,
              cancel_url: input.cancelUrl,
              ...expiresAt(settings),
            },
            { idempotencyKey: input.idempotencyKey },
          ),
        ),
      ),

    async retrieveCheckoutSession(id) {
      try {
        return sessionView(await stripe.checkout.sessions.retrieve(id));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw asPaymentServiceError(error);
      }
    },

    createBillingPortalSession: (input) =>
      call(async () => {
        const session = await stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl });
        return { url: session.url };
      }),

    setCancelAtPeriodEnd: (input) =>
      call(async () => {
        const subscription = await stripe.subscriptions.update(
          input.subscriptionId,
          { cancel_at_period_end: input.cancelAtPeriodEnd },
          { idempotencyKey: input.idempotencyKey },
        );
        return subscription as unknown as SubscriptionObject;
      }, NOTHING_CHANGED),

    refund: (input) =>
      call(async () => {
        const refund = await stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            ...(input.amount === undefined ? {} : { amount: input.amount }),
            ...(input.metadata ? { metadata: input.metadata } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return { id: refund.id, status: refund.status ?? "pending" };
      }, NOTHING_REFUNDED),

    verifyWebhook(rawBody, signatureHeader): PaymentEvent {
      if (!signatureHeader) throw new InvalidWebhookSignatureError("The webhook carries no signature.");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, settings.webhookSecret);
      } catch (error) {
        throw new InvalidWebhookSignatureError(error instanceof Error ? error.message : "The webhook's signature does not verify.");
      }
      const object = event.data.object as unknown as PaymentEvent["data"]["object"];
      return { id: event.id, type: event.type, created: event.created, data: { object } };
    },
  };
}
