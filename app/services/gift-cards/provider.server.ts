import crypto from "node:crypto";
import type { GiftCardProvider } from "~/integrations/gift-cards/gift-cards-port";
import { localGiftCardProvider } from "~/integrations/gift-cards/local.server";
import { tremendousProvider } from "~/integrations/gift-cards/tremendous.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";
import { findLocalGiftCardOrder, insertLocalGiftCardOrderOnce } from "~/models/local-gift-card-order.server";

/** Whether the app's own gift-card vendor is in use (no TREMENDOUS_API_KEY is set). */
export const localGiftCardsActive = () => !env().TREMENDOUS_API_KEY;

/** Tremendous when its key is set; otherwise the local vendor with its small catalogue. */
export function giftCardProvider(): GiftCardProvider {
  return singleton("giftCardProvider", () => {
    const settings = env();
    if (settings.TREMENDOUS_API_KEY) {
      return tremendousProvider({
        apiKey: settings.TREMENDOUS_API_KEY,
        baseUrl: settings.TREMENDOUS_API_URL,
        fundingSourceId: settings.TREMENDOUS_FUNDING_SOURCE_ID,
        timeoutMs: settings.TREMENDOUS_TIMEOUT_SECONDS * 1000,
      });
    }
    return localGiftCardProvider({
      appUrl: settings.APP_URL,
      deliverAfterMs: settings.LOCAL_GIFT_CARD_DELIVERY_SECONDS * 1000,
      newId: () => `lgc_${crypto.randomBytes(12).toString("hex")}`,
      store: {
        insertOnce: ({ id, externalId, input }) =>
          insertLocalGiftCardOrderOnce(db(), {
            id,
            externalId,
            productId: input.productId,
            amount: input.amount,
            currency: input.currency,
            recipientName: input.recipient.name,
            recipientEmail: input.recipient.email,
          }),
        find: (id) => findLocalGiftCardOrder(db(), id),
      },
    });
  });
}
