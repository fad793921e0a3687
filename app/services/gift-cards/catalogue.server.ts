import { isGiftCardServiceError, type GiftCardProduct } from "~/integrations/gift-cards/gift-cards-port";
import { ApiError } from "~/lib/http.server";
import { giftCardProvider } from "./provider.server";

/** The vendor failed: the caller may try again; nothing was bought. */
export const giftCardServiceUnavailable = (message: string) =>
  new ApiError(503, "GIFT_CARD_SERVICE_UNAVAILABLE", `${message} Please try again in a moment.`);

async function fromVendor<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isGiftCardServiceError(error)) throw giftCardServiceUnavailable(error.message);
    throw error;
  }
}

/** GET /v2/tremendous/products?country=: the brands a recipient in `country` can redeem, by name. */
export async function listGiftCardProducts(country: string): Promise<GiftCardProduct[]> {
  const products = await fromVendor(() => giftCardProvider().listProducts(country));
  return [...products].sort((a, b) => a.name.localeCompare(b.name, "en"));
}
