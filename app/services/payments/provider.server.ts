import { PaymentServiceError, type PaymentsProvider } from "~/integrations/payments/payments-port";

/** The card payment service in use; none is set up in this build, so every checkout says so. */
export function paymentsProvider(): PaymentsProvider {
  throw new PaymentServiceError("Card payments are not set up yet.", false);
}
