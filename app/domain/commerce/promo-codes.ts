import { describeWait } from "./holds";
import { formatMoney, shareOf } from "./money";

// Promo code rules: whether a code applies to a buyer and a cart, and what it takes off. Pure: the
// caller gathers the counts (redemptions so far, the buyer's earlier purchases) from the database.

export type PromoKind = "percent" | "amount";

export interface PromoRule {
  code: string;
  kind: PromoKind;
  /** Percent (1–100) for "percent"; minor units for "amount". */
  value: number;
  /** The currency of an amount-off code; a percent code fits any. */
  currency: string | null;
  expiresAt: Date | null;
  /** Redemptions of the code by everyone; null is no limit. */
  maxRedemptions: number | null;
  /** Redemptions by one buyer; null is no limit. */
  maxPerUser: number | null;
  /** Only these products are discounted; empty is every product in the cart. */
  productKeys: readonly string[];
  firstPurchaseOnly: boolean;
  paused: boolean;
  /** A personal code: only this account, or this e-mail address, may use it. */
  ownerUserId: string | null;
  ownerEmail: string | null;
}

export interface PromoBuyer {
  id: string;
  email: string;
}

export interface PromoUsage {
  now: Date;
  /** Redemptions of this code by everyone so far. */
  redemptions: number;
  /** Redemptions of this code by this buyer so far. */
  redemptionsByBuyer: number;
  /** Whether the buyer has paid for something before (a paid invoice above zero). */
  buyerHasPurchased: boolean;
  /** Uses held by other carts' payment pages that are still open (docs/decisions/046); none when omitted. */
  held?: PromoHolds;
}

export interface PromoHolds {
  /** Other carts whose open payment page holds a use of the code. */
  all: number;
  /** Those of them that are this buyer's. */
  byBuyer: number;
  /** When the first of those pages expires, should it not be paid (a use frees up then). */
  firstFreesAt: Date | null;
  /** The same, among the buyer's own. */
  firstOfBuyerFreesAt: Date | null;
}

export type PromoRefusal =
  "paused" | "expired" | "used_up" | "used_by_you" | "held" | "held_by_you" | "not_yours" | "first_purchase_only" | "no_matching_product";

export type PromoVerdict = { applies: true } | { applies: false; reason: PromoRefusal; message: string };

const MESSAGES: Record<Exclude<PromoRefusal, "held" | "held_by_you">, string> = {
  paused: "This code is not active at the moment.",
  expired: "This code has expired.",
  used_up: "This code has been used as many times as it can be.",
  used_by_you: "You have already used this code.",
  not_yours: "This code belongs to someone else.",
  first_purchase_only: "This code is for a first purchase only.",
  no_matching_product: "This code does not apply to anything in your cart.",
};

const refuse = (reason: keyof typeof MESSAGES): PromoVerdict => ({ applies: false, reason, message: MESSAGES[reason] });

/** Refused because the uses left are held by payment pages still open: said with when one frees up. */
function refuseHeld(reason: "held" | "held_by_you", freesAt: Date | null, now: Date): PromoVerdict {
  const when = freesAt ? ` It frees up ${describeWait(freesAt, now)} if that payment is not completed.` : "";
  const message =
    reason === "held"
      ? `This code's last use is held by a payment in progress.${when}`
      : `You are using this code in another payment in progress.${when}`;
  return { applies: false, reason, message };
}

/** Codes are matched without regard to case or surrounding spaces. */
export const normaliseCode = (code: string) => code.trim().toUpperCase();

/**
 * Whether the code may be used by this buyer now, before looking at a cart. The order is the order
 * a buyer can do something about: a paused or expired code first, then limits, then ownership.
 */
export function promoApplicability(rule: PromoRule, buyer: PromoBuyer, usage: PromoUsage): PromoVerdict {
  if (rule.paused) return refuse("paused");
  if (rule.expiresAt && rule.expiresAt.getTime() <= usage.now.getTime()) return refuse("expired");
  if (
    (rule.ownerUserId && rule.ownerUserId !== buyer.id) ||
    (!rule.ownerUserId && rule.ownerEmail && !sameEmail(rule.ownerEmail, buyer.email))
  )
    return refuse("not_yours");
  const held = usage.held ?? { all: 0, byBuyer: 0, firstFreesAt: null, firstOfBuyerFreesAt: null };
  if (rule.maxRedemptions !== null && usage.redemptions >= rule.maxRedemptions) return refuse("used_up");
  if (rule.maxPerUser !== null && usage.redemptionsByBuyer >= rule.maxPerUser) return refuse("used_by_you");
  // Uses held by open payment pages count against the limit as uses do (docs/decisions/046).
  if (rule.maxRedemptions !== null && usage.redemptions + held.all >= rule.maxRedemptions)
    return refuseHeld("held", held.firstFreesAt, usage.now);
  if (rule.maxPerUser !== null && usage.redemptionsByBuyer + held.byBuyer >= rule.maxPerUser)
    return refuseHeld("held_by_you", held.firstOfBuyerFreesAt, usage.now);
  if (rule.firstPurchaseOnly && usage.buyerHasPurchased) return refuse("first_purchase_only");
  return { applies: true };
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export interface DiscountableLine {
  key: string;
  /** What the line costs before any discount. */
  amount: number;
  currency: string;
}

/** Whether a line is one the code discounts. */
const discounts = (rule: Pick<PromoRule, "productKeys" | "kind" | "currency">, line: DiscountableLine) =>
  (rule.productKeys.length === 0 || rule.productKeys.includes(line.key)) &&
  line.amount > 0 &&
  (rule.kind === "percent" || rule.currency?.toLowerCase() === line.currency.toLowerCase());

/**
 * The discount on each line, in line order. A percent code takes its share of each line it covers,
 * rounded half-up per line. An amount-off code is spent on the lines it covers in order, never more
 * than a line costs, so the total can reach zero but never go below it.
 */
export function discountLines(rule: Pick<PromoRule, "kind" | "value" | "productKeys" | "currency">, lines: readonly DiscountableLine[]) {
  let left = rule.kind === "amount" ? rule.value : 0;
  return lines.map((line) => {
    if (!discounts(rule, line)) return 0;
    if (rule.kind === "percent") return Math.min(line.amount, shareOf(line.amount, Math.min(rule.value, 100), 100));
    const off = Math.min(left, line.amount);
    left -= off;
    return off;
  });
}

/** Whether the code discounts anything among these lines. */
export const coversAnyLine = (rule: Pick<PromoRule, "kind" | "productKeys" | "currency">, lines: readonly DiscountableLine[]) =>
  lines.some((line) => discounts(rule, line));

/** "20 % off", "$2.00 off": what the code takes off, in words. */
export const describeDiscount = (rule: Pick<PromoRule, "kind" | "value" | "currency">) =>
  rule.kind === "percent" ? `${rule.value} % off` : `${formatMoney(rule.value, rule.currency ?? undefined)} off`;

export type PromoState = "active" | "paused" | "expired" | "used up";

/** How a code stands for everyone, as staff see it in their list. */
export function promoCodeState(
  rule: Pick<PromoRule, "paused" | "expiresAt" | "maxRedemptions">,
  redemptions: number,
  now: Date,
): PromoState {
  if (rule.paused) return "paused";
  if (rule.expiresAt && rule.expiresAt.getTime() <= now.getTime()) return "expired";
  if (rule.maxRedemptions !== null && redemptions >= rule.maxRedemptions) return "used up";
  return "active";
}
