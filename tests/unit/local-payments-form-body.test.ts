import { describe, expect, test } from "vitest";
import { parseBracketedForm } from "~/services/payments/local/form-body";

describe("reading the payment API's bracketed form bodies", () => {
  test("nested objects, arrays by index and plain values come back as sent", () => {
    const body = new URLSearchParams([
      ["mode", "payment"],
      ["line_items[0][quantity]", "2"],
      ["line_items[0][price_data][currency]", "usd"],
      ["line_items[0][price_data][product_data][name]", "A & B = C"],
      ["line_items[1][quantity]", "1"],
      ["metadata[cartId]", "c-1"],
      ["metadata[kind]", "cart"],
    ]).toString();
    expect(parseBracketedForm(body)).toEqual({
      mode: "payment",
      line_items: [{ quantity: "2", price_data: { currency: "usd", product_data: { name: "A & B = C" } } }, { quantity: "1" }],
      metadata: { cartId: "c-1", kind: "cart" },
    });
  });

  test("indexes with holes are read in order", () => {
    expect(parseBracketedForm("a[2]=z&a[0]=x")).toEqual({ a: ["x", "z"] });
  });

  test("malformed names, prototype keys, deep nesting and huge indexes are refused", () => {
    expect(() => parseBracketedForm("a[b=1")).toThrow(/Invalid parameter/);
    expect(() => parseBracketedForm("__proto__[polluted]=1")).toThrow(/Invalid parameter/);
    expect(() => parseBracketedForm("a[constructor][prototype]=1")).toThrow(/Invalid parameter/);
    expect(() => parseBracketedForm("a[b][c][d][e][f][g][h][i]=1")).toThrow(/Invalid parameter/);
    expect(() => parseBracketedForm("a[100000]=1")).toThrow(/out of range/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
