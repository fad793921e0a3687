import { describe, expect, test } from "vitest";
import { judgeCard } from "~/services/payments/local/cards";

const today = new Date("2026-05-15T12:00:00Z");
const card = (cardNumber: string, expiry = "12 / 30", cvc = "123") => judgeCard({ cardNumber, expiry, cvc }, today);

describe("the local payment service's test cards", () => {
  test("4242 4242 4242 4242 pays, spaced or not", () => {
    expect(card("4242 4242 4242 4242")).toEqual({ ok: true, brand: "visa", last4: "4242" });
    expect(card("4242424242424242")).toMatchObject({ ok: true });
  });

  test("4000 0000 0000 0002 is declined with the card service's message", () => {
    expect(card("4000 0000 0000 0002")).toEqual({
      ok: false,
      field: "cardNumber",
      code: "card_declined",
      message: "Your card was declined.",
    });
    expect(card("4000 0000 0000 9995")).toMatchObject({ ok: false, code: "insufficient_funds" });
  });

  test("a number that fails its check digit, a past or malformed expiry and a short code are refused by field", () => {
    expect(card("4242 4242 4242 4241")).toMatchObject({ ok: false, field: "cardNumber", code: "incorrect_number" });
    expect(card("4242 4242 4242 4242", "04/26")).toMatchObject({ ok: false, field: "expiry", code: "invalid_expiry_year" });
    expect(card("4242 4242 4242 4242", "05/26")).toMatchObject({ ok: true });
    expect(card("4242 4242 4242 4242", "13/30")).toMatchObject({ ok: false, field: "expiry", code: "invalid_expiry" });
    expect(card("4242 4242 4242 4242", "12/30", "12")).toMatchObject({ ok: false, field: "cvc" });
  });

  test("any other valid number is declined with a hint, since nothing real is charged", () => {
    expect(card("4111 1111 1111 1111")).toMatchObject({ ok: false, code: "card_declined", message: expect.stringContaining("4242") });
  });
});
