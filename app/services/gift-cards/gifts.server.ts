import type { Event, Gift } from "drizzle/schema";
import { z } from "zod";
import { roomLeft } from "~/domain/commerce/holds";
import { parseMoney } from "~/domain/commerce/money";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { badRequest, isApiError, parseWith } from "~/lib/http.server";
import { deleteGift, findGiftOfEvent, giftPot, heldGiftRoom, upsertGift } from "~/models/gift.server";
import { isCountryCode, listCountries } from "~/services/commerce/countries.server";
import { listGiftCardProducts } from "./catalogue.server";

// The organiser's group gift card on a Chorus (docs/decisions/023-group-gift-cards.md): a brand from
// the vendor's catalogue for the recipient's country, and an optional target for the pot.

const giftInput = z.object({
  country: z.string().trim().toUpperCase().refine(isCountryCode, { error: "Choose the recipient's country." }),
  productId: z.string().trim().min(1, "Choose a gift card.").max(100),
  target: z.string().trim().max(20).default(""),
});

/** What a gift shows: its brand, limits, target, pot, and the room left on the card now. */
export async function giftSummary(gift: Gift) {
  const pot = await giftPot(db(), gift.id);
  const held = await heldGiftRoom(db(), gift.id);
  return {
    id: gift.id,
    status: gift.status,
    productName: gift.productName,
    currency: gift.currency,
    minAmount: gift.minAmount,
    maxAmount: gift.maxAmount,
    targetAmount: gift.targetAmount,
    potTotal: pot.total,
    contributions: pot.count,
    /** Held by contributions whose payment page is still open (docs/decisions/046). */
    heldAmount: held.total,
    roomLeft: roomLeft({ maxAmount: gift.maxAmount, pot: pot.total, held: held.total }),
    claimUrl: gift.claimUrl,
    failure: gift.failure,
  };
}

export async function giftOfEvent(event: Event) {
  const gift = await findGiftOfEvent(db(), event.id);
  return gift ? giftSummary(gift) : null;
}

/**
 * The organiser's gift section: the gift if it is on, and the brands of the country asked for (the
 * gift's own, else the one in the page address, else the app's default country).
 */
export async function organiserGiftSection(event: Event, askedCountry: string | null) {
  const gift = await findGiftOfEvent(db(), event.id);
  const wanted = askedCountry?.toUpperCase();
  const country = wanted && isCountryCode(wanted) ? wanted : (gift?.country ?? env().DEFAULT_PHONE_COUNTRY);
  let products: Awaited<ReturnType<typeof listGiftCardProducts>> = [];
  let unavailable: string | null = null;
  try {
    products = await listGiftCardProducts(country);
  } catch (error) {
    if (!isApiError(error) || error.status !== 503) throw error;
    unavailable = error.message;
  }
  return {
    gift: gift ? await giftSummary(gift) : null,
    productId: gift?.productId ?? null,
    country,
    countries: listCountries("name"),
    products: products.map((p) => ({ id: p.id, name: p.name, currency: p.currency, minAmount: p.minAmount, maxAmount: p.maxAmount })),
    unavailable,
  };
}

/** Turns the gift on (or changes it while no one has paid into it yet). */
export async function turnOnGift(event: Event, input: Record<string, unknown>) {
  const { country, productId, target } = parseWith(giftInput, input);
  const product = (await listGiftCardProducts(country)).find((p) => p.id === productId);
  if (!product) throw badRequest("Some fields need your attention.", { productId: "Choose a gift card sold in the recipient's country." });
  let targetAmount: number | null = null;
  if (target) {
    targetAmount = parseMoney(target, product.currency);
    if (targetAmount === null || targetAmount < product.minAmount || targetAmount > product.maxAmount) {
      throw badRequest("Some fields need your attention.", { target: `Choose a target between the card's limits, or leave it empty.` });
    }
  }
  return db().transaction(async (tx) => {
    const existing = await findGiftOfEvent(tx, event.id, { forUpdate: true });
    if (existing && existing.status !== "collecting") throw badRequest("This gift is already being sent; it can no longer change.");
    if (existing && existing.productId !== product.id && (await giftPot(tx, existing.id)).count > 0) {
      throw badRequest("People have already chipped in for this card: keep the brand, or change only the target.");
    }
    return upsertGift(tx, event.id, {
      country,
      productId: product.id,
      productName: product.name,
      currency: product.currency,
      minAmount: product.minAmount,
      maxAmount: product.maxAmount,
      targetAmount,
    });
  });
}

/** Turns the gift off; only while no one has paid into it. */
export async function turnOffGift(event: Event) {
  await db().transaction(async (tx) => {
    const gift = await findGiftOfEvent(tx, event.id, { forUpdate: true });
    if (!gift) return;
    if ((await giftPot(tx, gift.id)).count > 0) throw badRequest("People have already chipped in: the gift stays on.");
    await deleteGift(tx, gift.id);
  });
}

/** The card the recipient's page offers, once it is delivered. */
export async function recipientGiftOf(event: Event) {
  const gift = await findGiftOfEvent(db(), event.id);
  if (!gift || gift.status !== "delivered" || !gift.claimUrl) return null;
  return { productName: gift.productName, amount: gift.amountPaidOut, currency: gift.currency, claimUrl: gift.claimUrl };
}
