import { describe, expect, test } from "vitest";
import { summariseChoice } from "~/domain/commerce/cart-summary";
import {
  addonsFor,
  BASE_PRODUCT_KEY,
  choosableKeys,
  isLaterPurchase,
  membershipPlans,
  productByKey,
  productsLeftFor,
  upsellsFor,
} from "~/domain/commerce/catalogue";
import { describeWait, giftRoomRefusal } from "~/domain/commerce/holds";
import { formatMoney, shareOf } from "~/domain/commerce/money";
import { canUsePromoCode, priceCart, type PricingContext } from "~/domain/commerce/pricing";
import {
  describeDiscount,
  discountLines,
  normaliseCode,
  promoApplicability,
  type PromoRule,
  type PromoUsage,
} from "~/domain/commerce/promo-codes";
import { taxOn, taxRateFor } from "~/domain/commerce/tax";
import { audienceVideoOf, coveredByMembership, isUnlocked, mayWatch } from "~/domain/commerce/unlock";

const PAYING: PricingContext = { freeOccasion: false, member: false };
const BASE = [{ key: BASE_PRODUCT_KEY, quantity: 1 }];

const rule = (fields: Partial<PromoRule> = {}): PromoRule => ({
  code: "SAVE20",
  kind: "percent",
  value: 20,
  currency: null,
  expiresAt: null,
  maxRedemptions: null,
  maxPerUser: null,
  productKeys: [],
  firstPurchaseOnly: false,
  paused: false,
  ownerUserId: null,
  ownerEmail: null,
  ...fields,
});
const NOW = new Date("2030-01-10T12:00:00Z");
const usage = (fields: Partial<PromoUsage> = {}): PromoUsage => ({
  now: NOW,
  redemptions: 0,
  redemptionsByBuyer: 0,
  buyerHasPurchased: false,
  ...fields,
});
const buyer = { id: "u1", email: "Ana@Example.test" };

describe("money", () => {
  test("shares round half-up on integers", () => {
    expect(shareOf(500, 15, 100)).toBe(75);
    expect(shareOf(250, 1, 100)).toBe(3); // 2.5 → 3
    expect(shareOf(249, 1, 100)).toBe(2); // 2.49 → 2
    expect(shareOf(0, 20, 100)).toBe(0);
    expect(() => shareOf(-1, 1, 2)).toThrow(RangeError);
  });
  test("amounts are shown in their currency", () => {
    expect(formatMoney(500)).toBe("$5.00");
    expect(formatMoney(1250, "eur")).toBe("€12.50");
  });
});

describe("catalogue", () => {
  test("the Chorus is 5.00 USD and says what it gives", () => {
    const base = productByKey(BASE_PRODUCT_KEY)!;
    expect(base).toMatchObject({ kind: "base", unitAmount: 500, currency: "usd" });
    expect(base.gives).toEqual(["Deliver it to the recipient", "Full-quality download", "Keep it forever"]);
  });
  test("there is an upsell, add-ons that apply to the event, and two membership plans", () => {
    expect(upsellsFor().length).toBeGreaterThan(0);
    expect(addonsFor({ guestbook: false }).map((p) => p.key)).toEqual(["originals-zip"]);
    expect(addonsFor({ guestbook: true }).map((p) => p.key)).toEqual(["originals-zip", "guestbook-book"]);
    expect(choosableKeys({ guestbook: false }).has(BASE_PRODUCT_KEY)).toBe(false);
    expect(membershipPlans().map((p) => p.interval)).toEqual(["month", "year"]);
  });
  test("every price is a whole number of cents with a currency and something it gives", () => {
    for (const key of ["chorus", "premium", "originals-zip", "guestbook-book", "vip-monthly", "vip-yearly"]) {
      const p = productByKey(key)!;
      expect(Number.isInteger(p.unitAmount) && p.unitAmount > 0, key).toBe(true);
      expect(p.currency).toBe("usd");
      expect(p.gives.length).toBeGreaterThan(0);
    }
  });
});

describe("line items", () => {
  test("the Chorus is always first, chosen products follow, unknown keys are dropped", () => {
    const priced = priceCart(
      [
        { key: "originals-zip", quantity: 1 },
        { key: "withdrawn", quantity: 1 },
        { key: "vip-yearly", quantity: 1 },
      ],
      PAYING,
      null,
      null,
    );
    expect(priced.lineItems.map((l) => [l.key, l.amount])).toEqual([
      ["chorus", 500],
      ["originals-zip", 300],
    ]);
    expect(priced.totals).toEqual({ subtotal: 800, discount: 0, tax: 0, total: 800, currency: "usd" });
  });
  test("a free occasion's Chorus costs nothing; add-ons still do", () => {
    const free = priceCart(BASE, { freeOccasion: true, member: false }, null, null);
    expect(free.lineItems[0]).toMatchObject({ unitAmount: 500, amount: 0, included: "free-occasion" });
    expect(free.totals.total).toBe(0);
    expect(canUsePromoCode(free)).toBe(false);
    const withZip = priceCart([...BASE, { key: "originals-zip", quantity: 1 }], { freeOccasion: true, member: false }, null, null);
    expect(withZip.totals.total).toBe(300);
    expect(canUsePromoCode(withZip)).toBe(true);
  });
  test("a member's Chorus and premium finish are included", () => {
    const priced = priceCart([...BASE, { key: "premium", quantity: 1 }], { freeOccasion: false, member: true }, null, "GB");
    expect(priced.lineItems.map((l) => l.included)).toEqual(["membership", "membership"]);
    expect(priced.totals.total).toBe(0);
  });
  test("quantity multiplies the line", () => {
    expect(priceCart([...BASE, { key: "originals-zip", quantity: 2 }], PAYING, null, null).totals.subtotal).toBe(1100);
  });
  test("a later purchase holds only what is added to the Chorus, never the Chorus again", () => {
    const later = [{ key: "originals-zip", quantity: 1 }];
    expect(isLaterPurchase(later)).toBe(true);
    expect(isLaterPurchase([...BASE, ...later])).toBe(false);
    const priced = priceCart(later, { ...PAYING, laterPurchase: true }, null, "DE");
    expect(priced.lineItems.map((l) => [l.key, l.amount])).toEqual([["originals-zip", 300]]);
    expect(priced.totals).toEqual({ subtotal: 300, discount: 0, tax: 57, total: 357, currency: "usd" });
    expect(priceCart([], { ...PAYING, laterPurchase: true }, null, null).lineItems).toEqual([]);
  });
  test("what is left to buy leaves out what the event has, and the keepsake a Chorus without a guestbook cannot have", () => {
    const has = (key: string) => key === "premium";
    expect(productsLeftFor({ guestbook: true }, has).map((p) => p.key)).toEqual(["originals-zip", "guestbook-book"]);
    expect(productsLeftFor({ guestbook: false }, has).map((p) => p.key)).toEqual(["originals-zip"]);
    expect(productsLeftFor({ guestbook: false }, () => true)).toEqual([]);
  });
});

describe("promo codes: whether one applies", () => {
  test("a plain code applies", () => expect(promoApplicability(rule(), buyer, usage())).toEqual({ applies: true }));
  test("paused, expired (at the very moment too)", () => {
    expect(promoApplicability(rule({ paused: true }), buyer, usage())).toMatchObject({ applies: false, reason: "paused" });
    expect(promoApplicability(rule({ expiresAt: NOW }), buyer, usage())).toMatchObject({ reason: "expired" });
    expect(promoApplicability(rule({ expiresAt: new Date(NOW.getTime() + 1000) }), buyer, usage()).applies).toBe(true);
  });
  test("overall and per-buyer limits", () => {
    expect(promoApplicability(rule({ maxRedemptions: 3 }), buyer, usage({ redemptions: 2 })).applies).toBe(true);
    expect(promoApplicability(rule({ maxRedemptions: 3 }), buyer, usage({ redemptions: 3 }))).toMatchObject({ reason: "used_up" });
    expect(promoApplicability(rule({ maxPerUser: 1 }), buyer, usage({ redemptionsByBuyer: 1 }))).toMatchObject({ reason: "used_by_you" });
    expect(promoApplicability(rule({ maxPerUser: 2 }), buyer, usage({ redemptionsByBuyer: 1 })).applies).toBe(true);
  });
  test("first purchase only", () => {
    expect(promoApplicability(rule({ firstPurchaseOnly: true }), buyer, usage({ buyerHasPurchased: true }))).toMatchObject({
      reason: "first_purchase_only",
      message: "This code is for a first purchase only.",
    });
    expect(promoApplicability(rule({ firstPurchaseOnly: true }), buyer, usage()).applies).toBe(true);
  });
  test("a personal code is only its owner's, by account or by e-mail in any case", () => {
    expect(promoApplicability(rule({ ownerUserId: "u2" }), buyer, usage())).toMatchObject({ reason: "not_yours" });
    expect(promoApplicability(rule({ ownerUserId: "u1" }), buyer, usage()).applies).toBe(true);
    expect(promoApplicability(rule({ ownerEmail: "ana@example.TEST" }), buyer, usage()).applies).toBe(true);
    expect(promoApplicability(rule({ ownerEmail: "bo@example.test" }), buyer, usage())).toMatchObject({ reason: "not_yours" });
  });
  test("codes are compared in upper case without spaces", () => expect(normaliseCode("  save20 ")).toBe("SAVE20"));
});

describe("limits held by open payment pages", () => {
  const held = (all: number, byBuyer = 0) => ({
    all,
    byBuyer,
    firstFreesAt: new Date(NOW.getTime() + 25 * 60_000),
    firstOfBuyerFreesAt: byBuyer ? new Date(NOW.getTime() + 3 * 3_600_000) : null,
  });

  test("a code's uses held by open pages count against its limit, said with when one frees up", () => {
    expect(promoApplicability(rule({ maxRedemptions: 2 }), buyer, usage({ redemptions: 1, held: held(0) })).applies).toBe(true);
    expect(promoApplicability(rule({ maxRedemptions: 2 }), buyer, usage({ redemptions: 1, held: held(1) }))).toEqual({
      applies: false,
      reason: "held",
      message: "This code's last use is held by a payment in progress. It frees up in about 25 minutes if that payment is not completed.",
    });
    // Used up outright says so, held or not.
    expect(promoApplicability(rule({ maxRedemptions: 1 }), buyer, usage({ redemptions: 1, held: held(1) }))).toMatchObject({
      reason: "used_up",
    });
    expect(promoApplicability(rule({ maxPerUser: 1 }), buyer, usage({ held: held(1, 1) }))).toMatchObject({
      reason: "held_by_you",
      message: "You are using this code in another payment in progress. It frees up in about 3 hours if that payment is not completed.",
    });
  });

  test("waits in words", () => {
    expect(describeWait(new Date(NOW.getTime() - 1000), NOW)).toBe("in under a minute");
    expect(describeWait(new Date(NOW.getTime() + 60_000), NOW)).toBe("in about 1 minute");
    expect(describeWait(new Date(NOW.getTime() + 89 * 60_000), NOW)).toBe("in about 89 minutes");
    expect(describeWait(new Date(NOW.getTime() + 24 * 3_600_000), NOW)).toBe("in about 24 hours");
  });

  test("a gift card's room: what is left, what open pages hold and when it is free again", () => {
    const card = { maxAmount: 50_000, pot: 0, held: 0, lastFreesAt: null, currency: "USD" };
    const later = new Date(NOW.getTime() + 24 * 3_600_000);
    expect(giftRoomRefusal(50_000, card, NOW)).toBeNull();
    expect(giftRoomRefusal(2_500, { ...card, held: 50_000, lastFreesAt: later }, NOW)).toBe(
      "The rest of this card ($500.00) is held by a payment in progress: it is free again in about 24 hours if that payment is not completed.",
    );
    expect(giftRoomRefusal(50_000, { ...card, held: 2_500, lastFreesAt: later }, NOW)).toBe(
      "At most $475.00 more fits on this card now: another $25.00 is held by a payment in progress, and is free again in about 24 hours if it is not completed.",
    );
    expect(giftRoomRefusal(10_001, { ...card, pot: 40_000 }, NOW)).toBe("At most $100.00 more fits on this card.");
    expect(giftRoomRefusal(500, { ...card, pot: 50_000 }, NOW)).toBe("This card is full.");
  });
});

describe("the cart page's live total", () => {
  test("is the server's pricing of the ticked boxes and country, with the Chorus always in a first cart", () => {
    const live = { context: PAYING, promo: null };
    expect(summariseChoice(live, [], null)).toMatchObject({ total: "$5.00", totalAmount: 500, free: false });
    const gb = summariseChoice(live, ["premium"], "GB");
    expect(gb).toMatchObject({ total: "$10.80", tax: "VAT 20 %", taxAmount: "$1.80" });
    expect(gb.lines.map((l) => l.key)).toEqual(["chorus", "premium"]);
    // A code kept in the cart that covers only the premium finish counts as soon as it is ticked.
    const premiumOnly = { context: PAYING, promo: rule({ value: 50, productKeys: ["premium"] }) };
    expect(summariseChoice(premiumOnly, [], null).promotion).toBeNull();
    expect(summariseChoice(premiumOnly, ["premium"], null)).toMatchObject({ total: "$7.00", promotion: { amount: "−$2.00" } });
    expect(summariseChoice({ context: { ...PAYING, laterPurchase: true }, promo: null }, [], null)).toMatchObject({ nothingChosen: true });
    expect(summariseChoice({ context: { ...PAYING, member: true }, promo: null }, ["premium"], null)).toMatchObject({ free: true });
  });
});

describe("promo codes: what they take off", () => {
  const lines = [
    { key: "chorus", amount: 500, currency: "usd" },
    { key: "premium", amount: 400, currency: "usd" },
    { key: "originals-zip", amount: 300, currency: "usd" },
  ];
  test("a percent code takes its share of each line, rounded half-up per line", () => {
    expect(discountLines(rule({ value: 15 }), lines)).toEqual([75, 60, 45]);
    // 12.5 % of 300 is 37.5 → 38; of 500 is 62.5 → 63.
    expect(discountLines(rule({ value: 12.5 }), [lines[0]!, lines[2]!])).toEqual([63, 38]);
  });
  test("limited to some products", () => {
    expect(discountLines(rule({ productKeys: ["premium"] }), lines)).toEqual([0, 80, 0]);
  });
  test("an amount-off code is spent line by line and never below zero", () => {
    expect(discountLines(rule({ kind: "amount", value: 700, currency: "usd" }), lines)).toEqual([500, 200, 0]);
    expect(discountLines(rule({ kind: "amount", value: 5000, currency: "usd" }), lines)).toEqual([500, 400, 300]);
    expect(discountLines(rule({ kind: "amount", value: 700, currency: "eur" }), lines)).toEqual([0, 0, 0]);
  });
  test("in words", () => {
    expect(describeDiscount(rule())).toBe("20 % off");
    expect(describeDiscount(rule({ kind: "amount", value: 250, currency: "usd" }))).toBe("$2.50 off");
  });
  test("a 100 % code makes the total 0, tax included", () => {
    const priced = priceCart([...BASE, { key: "originals-zip", quantity: 1 }], PAYING, rule({ value: 100 }), "GB");
    expect(priced.totals).toEqual({ subtotal: 800, discount: 800, tax: 0, total: 0, currency: "usd" });
    expect(priced.promotion).toEqual({ code: "SAVE20", description: "100 % off", discount: 800 });
  });
  test("a code that covers nothing in the cart gives no promotion", () => {
    const priced = priceCart(BASE, PAYING, rule({ productKeys: ["originals-zip"] }), null);
    expect(priced.promotion).toBeNull();
    expect(priced.totals.total).toBe(500);
  });
});

describe("tax", () => {
  test("rates by country; none for a country not in the table or no country", () => {
    expect(taxRateFor("gb")).toMatchObject({ country: "GB", label: "VAT", basisPoints: 2000 });
    expect(taxRateFor("US").basisPoints).toBe(0);
    expect(taxRateFor(null).basisPoints).toBe(0);
  });
  test("exclusive, on the discounted subtotal, rounded half-up once on the total", () => {
    // 500 + 300 = 800, 15 % off per line: 75 + 45 = 120, taxable 680, 19 % = 129.2 → 129.
    const priced = priceCart([...BASE, { key: "originals-zip", quantity: 1 }], PAYING, rule({ value: 15 }), "DE");
    expect(priced.taxation).toMatchObject({ country: "DE", basisPoints: 1900, rate: "19 %", taxable: 680, amount: 129 });
    expect(priced.totals).toEqual({ subtotal: 800, discount: 120, tax: 129, total: 809, currency: "usd" });
    // 5 % of 250 is 12.5 → 13 (half-up), 5 % of 249 is 12.45 → 12.
    expect(taxOn(250, { basisPoints: 500 })).toBe(13);
    expect(taxOn(249, { basisPoints: 500 })).toBe(12);
  });
});

describe("what payment unlocks", () => {
  const organiser = { subscriptionId: null, hasLegacyB2bSubscription: false };
  const chorus = { paid: false, occasion: "birthday", includedWithMembershipAt: null };
  test("a paid event, a free occasion, or a member organiser", () => {
    expect(isUnlocked(chorus, organiser)).toBe(false);
    expect(isUnlocked({ ...chorus, paid: true }, organiser)).toBe(true);
    expect(isUnlocked({ ...chorus, occasion: "getwell" }, organiser)).toBe(true);
    expect(isUnlocked(chorus, { ...organiser, subscriptionId: "sub_1" })).toBe(true);
    expect(isUnlocked(chorus, { ...organiser, hasLegacyB2bSubscription: true })).toBe(true);
  });

  test("a Chorus started as a member stays covered by the membership once it has ended; one started before does not", () => {
    const startedAsMember = { ...chorus, includedWithMembershipAt: new Date("2026-03-01T10:00:00Z") };
    expect(coveredByMembership(startedAsMember, organiser)).toBe(true);
    expect(isUnlocked(startedAsMember, organiser)).toBe(true);
    expect(coveredByMembership(chorus, organiser)).toBe(false);
    expect(coveredByMembership(chorus, { ...organiser, subscriptionId: "sub_1" })).toBe(true);
  });

  test("a locked Chorus's video plays for its organiser and staff only; an unlocked one for anyone its links reach", () => {
    const event = { creatorId: "organiser" };
    const watchers = {
      nobody: null,
      "another user": { id: "someone", role: "user" as const },
      organiser: { id: "organiser", role: "user" as const },
      editor: { id: "editor", role: "editor" as const },
      admin: { id: "admin", role: "admin" as const },
    };
    const locked = Object.fromEntries(Object.entries(watchers).map(([name, w]) => [name, mayWatch(event, false, w)]));
    expect(locked).toEqual({ nobody: false, "another user": false, organiser: true, editor: true, admin: true });
    for (const watcher of Object.values(watchers)) expect(mayWatch(event, true, watcher)).toBe(true);
  });

  test("the recipient's page shows the video only once it is published and unlocked; refunded after delivery, it is unavailable", () => {
    expect(audienceVideoOf({ published: false, unlocked: false, delivered: false })).toBe("preparing");
    expect(audienceVideoOf({ published: false, unlocked: true, delivered: false })).toBe("preparing");
    expect(audienceVideoOf({ published: true, unlocked: false, delivered: false })).toBe("on-its-way");
    expect(audienceVideoOf({ published: true, unlocked: false, delivered: true })).toBe("unavailable");
    expect(audienceVideoOf({ published: true, unlocked: true, delivered: false })).toBe("ready");
    expect(audienceVideoOf({ published: true, unlocked: true, delivered: true })).toBe("ready");
  });
});
