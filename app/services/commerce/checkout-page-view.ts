import type { loadCheckoutPage } from "./checkout-page.server";

/** The checkout page as its form is handed it (app/components/commerce/), as checkout-page.server.ts loads it. */
export type CheckoutPage = Awaited<ReturnType<typeof loadCheckoutPage>>;
