import type { PaymentsProvider } from "./payments-port";
import { stripePaymentsProvider } from "./stripe.server";

/** Where the app's own Stripe-compatible service answers: its API under /v1, its pages beside it. */
export const LOCAL_PAYMENTS_PATH = "/local-payments";

/**
 * The local provider: the same Stripe SDK adapter, pointed at the app's own Stripe-compatible
 * service (app/services/payments/local/) on APP_URL with the local keys, so checkout, the webhook
 * route and everything after them run the same code with or without Stripe.
 */
export function localPaymentsProvider(settings: {
  appUrl: string;
  secretKey: string;
  webhookSecret: string;
  timeoutMs: number;
  checkoutExpirySeconds: number;
}): PaymentsProvider {
  const url = new URL(settings.appUrl);
  const protocol = url.protocol === "https:" ? "https" : "http";
  return stripePaymentsProvider({
    name: "local",
    secretKey: settings.secretKey,
    webhookSecret: settings.webhookSecret,
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === "https" ? 443 : 80,
    protocol,
    basePath: LOCAL_PAYMENTS_PATH,
    timeoutMs: settings.timeoutMs,
    checkoutExpirySeconds: settings.checkoutExpirySeconds,
    // The app itself answers: a failure is not a passing network fault.
    networkRetries: 0,
  });
}
