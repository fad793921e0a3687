import crypto from "node:crypto";
import { localBrand } from "~/integrations/gift-cards/local-catalogue";
import { db } from "~/lib/db.server";
import { findLocalGiftCardOrder } from "~/models/local-gift-card-order.server";
import { giftCardProvider, localGiftCardsActive } from "./provider.server";

/**
 * The local vendor's claim page: the card a delivered order sent, with a made-up code. Null (a 404)
 * while Tremendous is configured, for an unknown order, or before the order is delivered.
 */
export async function localGiftCardClaim(orderId: string) {
  if (!localGiftCardsActive()) return null;
  const row = await findLocalGiftCardOrder(db(), orderId);
  const order = row ? await giftCardProvider().getOrder(row.id) : null;
  if (!row || order?.status !== "delivered") return null;
  const code = crypto.createHash("sha256").update(row.id).digest("hex").slice(0, 16).toUpperCase();
  return {
    brand: localBrand(row.productId)?.name ?? row.productId,
    amount: row.amount,
    currency: row.currency,
    recipientName: row.recipientName,
    code: code.match(/.{4}/g)!.join("-"),
  };
}
