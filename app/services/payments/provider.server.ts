import { localPaymentsProvider } from "~/integrations/payments/local.server";
import type { PaymentsProvider } from "~/integrations/payments/payments-port";
import { stripePaymentsProvider } from "~/integrations/payments/stripe.server";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";
import { localPaymentKeys } from "./local/keys.server";

/** Whether the app's own payment service takes payments (no STRIPE_SECRET_KEY is set). */
export const localPaymentsActive = () => !env().STRIPE_SECRET_KEY;

/** Stripe when its keys are set; otherwise the local payment service, through the same adapter. */
export function paymentsProvider(): PaymentsProvider {
  return singleton("paymentsProvider", () => {
    const settings = env();
    const timeoutMs = settings.STRIPE_TIMEOUT_SECONDS * 1000;
    if (settings.STRIPE_SECRET_KEY) {
      return stripePaymentsProvider({
        name: "stripe",
        secretKey: settings.STRIPE_SECRET_KEY,
        webhookSecret: settings.STRIPE_WEBHOOK_SECRET ?? "",
        host: settings.STRIPE_API_HOST,
        port: settings.STRIPE_API_PORT,
        protocol: settings.STRIPE_API_PROTOCOL,
        timeoutMs,
        networkRetries: settings.STRIPE_NETWORK_RETRIES,
        checkoutExpirySeconds: settings.CHECKOUT_EXPIRY_SECONDS,
      });
    }
    return localPaymentsProvider({
      appUrl: settings.APP_URL,
      ...localPaymentKeys(),
      timeoutMs,
      checkoutExpirySeconds: settings.CHECKOUT_EXPIRY_SECONDS,
    });
  });
}
