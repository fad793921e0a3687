import { describe, expect, test } from "vitest";
import { moneyInput, parseMoney } from "~/domain/commerce/money";
import { promoCodeState } from "~/domain/commerce/promo-codes";
import { checkRefund, refundableAmount, refundIdempotencyKey } from "~/domain/commerce/refunds";
import { promoCodeInput, refundInput } from "~/domain/commerce/staff-input";
import { validateInput } from "~/lib/http.server";

describe("amounts typed in the currency's units", () => {
  test("dollars with up to two decimals become cents; yen stay whole", () => {
    expect(parseMoney("2.50", "usd")).toBe(250);
    expect(parseMoney(" 2,5 ", "usd")).toBe(250);
    expect(parseMoney("$3", "usd")).toBe(300);
    expect(parseMoney("0.01", "usd")).toBe(1);
    expect(parseMoney("500", "jpy")).toBe(500);
  });

  test("anything else is no amount: more decimals than the currency has, zero, signs, words", () => {
    for (const typed of ["2.505", "0", "0.00", "-1", "1e3", "two", "", "1.2.3", "500.5"]) {
      expect(parseMoney(typed, typed === "500.5" ? "jpy" : "usd"), typed).toBeNull();
    }
  });

  test("minor units written back for a field", () => {
    expect(moneyInput(250, "usd")).toBe("2.50");
    expect(moneyInput(5, "usd")).toBe("0.05");
    expect(moneyInput(500, "jpy")).toBe("500");
  });
});

describe("refunds staff may ask for", () => {
  const payment = { id: "p1", amount: 500, amountRefunded: 0, currency: "usd" };

  test("the whole of what is left, or a part of it, never more", () => {
    expect(checkRefund(payment, null)).toEqual({ ok: true, amount: 500, whole: true });
    expect(checkRefund(payment, 200)).toEqual({ ok: true, amount: 200, whole: false });
    const partly = { ...payment, amountRefunded: 200 };
    expect(refundableAmount(partly)).toBe(300);
    expect(checkRefund(partly, null)).toMatchObject({ ok: true, amount: 300 });
    expect(checkRefund(partly, 301)).toEqual({
      ok: false,
      message: "At most $3.00 is left to refund on this payment; $3.01 is more.",
    });
    expect(checkRefund({ ...payment, amountRefunded: 500 }, null)).toMatchObject({ ok: false, message: /in full already/ });
  });

  test("a double press asks with the same key; once the refund is confirmed, the next one gets a new key", () => {
    expect(refundIdempotencyKey(payment, 200)).toBe(refundIdempotencyKey({ ...payment }, 200));
    expect(refundIdempotencyKey(payment, 200)).not.toBe(refundIdempotencyKey({ ...payment, amountRefunded: 200 }, 200));
    expect(refundIdempotencyKey(payment, 200)).not.toBe(refundIdempotencyKey(payment, 300));
    expect(refundIdempotencyKey(payment, 200)).not.toBe(refundIdempotencyKey({ ...payment, id: "p2" }, 200));
  });

  test("the form: whole needs only a reason; part needs an amount", () => {
    expect(validateInput(refundInput, { scope: "whole", reason: "Asked by the organiser" }).success).toBe(true);
    const noAmount = validateInput(refundInput, { scope: "part", amount: "", reason: "Late" });
    expect(noAmount.success).toBe(false);
    expect(noAmount.error?.issues[0]).toMatchObject({ path: ["amount"] });
    const noReason = validateInput(refundInput, { scope: "whole", reason: "  " });
    expect(noReason.error?.issues[0]).toMatchObject({ path: ["reason"], message: "Say why, for the record." });
  });
});

describe("promo codes staff make", () => {
  const now = new Date("2030-06-01T12:00:00Z");
  const parse = (fields: Record<string, unknown>) => validateInput(promoCodeInput(now), { kind: "percent", value: "20", ...fields });
  const errors = (fields: Record<string, unknown>) => {
    const result = parse(fields);
    return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
  };

  test("a full code: upper-cased, amount in cents, expiring at the end of the day chosen, limited to catalogue products", () => {
    const result = parse({
      code: " summer-30 ",
      kind: "amount",
      value: "2.50",
      expiresOn: "2030-06-30",
      maxRedemptions: "100",
      maxPerUser: "1",
      productKeys: ["chorus", "premium", "chorus"],
      firstPurchaseOnly: "on",
    });
    expect(result.data).toEqual({
      code: "SUMMER-30",
      kind: "amount",
      value: 250,
      currency: "usd",
      expiresOn: new Date("2030-07-01T00:00:00Z"),
      maxRedemptions: 100,
      maxPerUser: 1,
      productKeys: ["chorus", "premium"],
      firstPurchaseOnly: true,
    });
  });

  test("empty fields mean a made-up code, no expiry, no limits, every product", () => {
    expect(parse({ code: "", expiresOn: "", maxRedemptions: "", maxPerUser: "" }).data).toEqual({
      code: null,
      kind: "percent",
      value: 20,
      currency: null,
      expiresOn: null,
      maxRedemptions: null,
      maxPerUser: null,
      productKeys: [],
      firstPurchaseOnly: false,
    });
  });

  test("each wrong field is named", () => {
    expect(errors({ value: "150" })).toEqual({ value: "Enter a whole percentage from 1 to 100." });
    expect(errors({ kind: "amount", value: "2.505" })).toEqual({ value: "Enter an amount in dollars, like 2.50." });
    expect(errors({ code: "A!" }).code).toMatch(/letters, digits and dashes/);
    expect(errors({ kind: "gift" }).kind).toBe("Choose a percentage or an amount off.");
    expect(errors({ expiresOn: "2030-05-31" }).expiresOn).toBe("Choose a day from today on.");
    expect(errors({ expiresOn: "next week" }).expiresOn).toBe("Use a date like 2030-12-31.");
    expect(errors({ maxRedemptions: "0" }).maxRedemptions).toMatch(/1 or more/);
    expect(errors({ maxPerUser: "1.5" }).maxPerUser).toMatch(/1 or more/);
    expect(errors({ productKeys: ["vip-monthly"] }).productKeys).toBe("Choose among the products we sell.");
    // Every mistake at once, the amount's among them.
    expect(Object.keys(errors({ value: "150", code: "A!", maxPerUser: "0" })).sort()).toEqual(["code", "maxPerUser", "value"]);
    // Today still counts: the code works until the end of it.
    expect(parse({ expiresOn: "2030-06-01" }).success).toBe(true);
  });

  test("a code's state for everyone: paused, expired, used up or active", () => {
    const code = { paused: false, expiresAt: null, maxRedemptions: 2 };
    expect(promoCodeState(code, 1, now)).toBe("active");
    expect(promoCodeState(code, 2, now)).toBe("used up");
    expect(promoCodeState({ ...code, expiresAt: now }, 0, now)).toBe("expired");
    expect(promoCodeState({ ...code, paused: true, expiresAt: now }, 2, now)).toBe("paused");
  });
});
