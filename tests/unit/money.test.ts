import { describe, expect, test } from "vitest";
import { formatMoney } from "~/domain/commerce/money";

describe("amounts in minor units shown as prices", () => {
  test("cents become dollars and euros; a currency without minor units stays whole", () => {
    expect(formatMoney(1999, "usd")).toBe("$19.99");
    expect(formatMoney(500, "eur")).toBe("€5.00");
    expect(formatMoney(500, "jpy")).toBe("¥500");
  });
});
