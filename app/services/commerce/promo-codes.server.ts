import crypto from "node:crypto";
import type { PromoCode, Rsvp, User } from "drizzle/schema";
import { formatMoney } from "~/domain/commerce/money";
import { priceCart, type CartProduct, type PricingContext } from "~/domain/commerce/pricing";
import { describeDiscount, normaliseCode, promoApplicability, type PromoRule, type PromoVerdict } from "~/domain/commerce/promo-codes";
import { PRODUCT_NAME } from "~/domain/product";
import { db, type Db } from "~/lib/db.server";
import { countLiveHolds } from "~/models/promo-code-hold.server";
import {
  countRedemptions,
  findOrInsertRsvpPromoCode,
  findPromoCodeByCode,
  hasPaidInvoice,
  listPromoCodesOwnedBy,
} from "~/models/promo-code.server";

// Promo codes as the rules of app/domain/commerce/promo-codes.ts see them, with the counts those
// rules need read from the database.

export const ruleOf = (code: PromoCode): PromoRule => ({
  code: code.code,
  kind: code.kind,
  value: code.value,
  currency: code.currency,
  expiresAt: code.expiresAt,
  maxRedemptions: code.maxRedemptions,
  maxPerUser: code.maxPerUser,
  productKeys: code.productKeys,
  firstPurchaseOnly: code.firstPurchaseOnly,
  paused: code.paused,
  ownerUserId: code.ownerUserId,
  ownerEmail: code.ownerEmail,
});

/**
 * Whether this buyer may use the code now (before any cart). Uses held by open payment pages count
 * as uses, but those of `cartId`'s own pages (a cart redeems once). Inside a transaction, lock the
 * code first to count exactly.
 */
export async function judgePromoCode(
  code: PromoCode,
  buyer: Pick<User, "id" | "email">,
  tx: Db = db(),
  cartId: string | null = null,
): Promise<PromoVerdict> {
  const [counts, held] = await Promise.all([countRedemptions(tx, code.id, buyer.id), countLiveHolds(tx, code.id, buyer.id, cartId)]);
  return promoApplicability(ruleOf(code), buyer, {
    now: new Date(),
    redemptions: counts.all,
    redemptionsByBuyer: counts.byUser,
    buyerHasPurchased: code.firstPurchaseOnly ? await hasPaidInvoice(tx, buyer.id) : false,
    held,
  });
}

/** A code as its owner sees it in their list. */
export function promoCodeView(code: PromoCode) {
  return {
    id: code.id,
    code: code.code,
    kind: code.kind,
    value: code.value,
    currency: code.currency,
    description: describeDiscount(code),
    expiresAt: code.expiresAt?.toISOString() ?? null,
    maxRedemptions: code.maxRedemptions,
    maxPerUser: code.maxPerUser,
    productKeys: code.productKeys,
    firstPurchaseOnly: code.firstPurchaseOnly,
    paused: code.paused,
    createdAt: code.createdAt.toISOString(),
  };
}

export async function promoCodesOf(owner: Pick<User, "id" | "email">) {
  return (await listPromoCodesOwnedBy(db(), owner)).map(promoCodeView);
}

/** What a contributor is given for a Chorus of their own (spec §3 "contributor promo code"). */
export const CONTRIBUTOR_OFFER = { kind: "percent" as const, value: 20, validDays: 90 };

/** Readable, unguessable: a prefix and eight letters and digits without look-alikes ("THANKS-7KQ2M9XD"). */
export function newPromoCode(prefix: string) {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = crypto.randomBytes(8);
  return `${prefix}-${[...bytes].map((b) => alphabet[b % alphabet.length]).join("")}`;
}

/**
 * The invitee's personal code, made once: 20 % off a first Chorus of their own, one use, for the
 * account or e-mail address they were invited with.
 */
export async function contributorPromoCode(rsvp: Pick<Rsvp, "id" | "userId" | "email">) {
  return findOrInsertRsvpPromoCode(db(), {
    rsvpId: rsvp.id,
    code: newPromoCode("THANKS"),
    kind: CONTRIBUTOR_OFFER.kind,
    value: CONTRIBUTOR_OFFER.value,
    expiresAt: new Date(Date.now() + CONTRIBUTOR_OFFER.validDays * 86_400_000),
    maxRedemptions: 1,
    maxPerUser: 1,
    firstPurchaseOnly: true,
    ownerUserId: rsvp.userId,
    ownerEmail: rsvp.userId ? null : rsvp.email,
  });
}

/**
 * GET /v2/promo-codes/check/{code}: whether the code applies for this buyer and what it takes
 * off; with a cart, what it takes off that cart. An unknown code is an answer, not an error.
 */
export async function checkPromoCode(buyer: Pick<User, "id" | "email">, typed: string, cart: PromoCartContext | null) {
  const code = await findPromoCodeByCode(db(), normaliseCode(typed));
  if (!code) return { code: normaliseCode(typed), applies: false, reason: "unknown", message: "We don't know this code." };
  const verdict = await judgePromoCode(code, buyer, db(), cart?.cartId ?? null);
  const base = { code: code.code, kind: code.kind, value: code.value, currency: code.currency, description: describeDiscount(code) };
  if (!verdict.applies) return { ...base, applies: false, reason: verdict.reason, message: verdict.message };
  if (!cart) return { ...base, applies: true, reason: null, message: `${describeDiscount(code)}.` };
  const pricing = priceCart(cart.products, cart.context, ruleOf(code), cart.country);
  if (!pricing.promotion) {
    return { ...base, applies: false, reason: "no_matching_product", message: "This code does not apply to anything in your cart." };
  }
  return {
    ...base,
    applies: true,
    reason: null,
    message: `${describeDiscount(code)}: ${formatMoney(pricing.promotion.discount, pricing.totals.currency)} off this cart.`,
    discount: pricing.promotion.discount,
    total: pricing.totals.total,
  };
}

export interface PromoCartContext {
  /** The open cart, whose own payment pages' holds do not count against it. */
  cartId: string | null;
  products: CartProduct[];
  context: PricingContext;
  country: string | null;
}

/**
 * What an invitee who has contributed is shown: their personal code for a Chorus of their own.
 * Null for anyone else (someone who added through the open link is not known to us).
 */
export async function contributorOfferFor(rsvp: Pick<Rsvp, "id" | "userId" | "email" | "status"> | null) {
  if (!rsvp || rsvp.status !== "contributed") return null;
  const code = await contributorPromoCode(rsvp);
  return {
    code: code.code,
    description: `${describeDiscount(code)} your first ${PRODUCT_NAME} of your own`,
    expiresOn: code.expiresAt?.toISOString().slice(0, 10) ?? null,
  };
}
