// The test cards the local payment service knows, as Stripe's test mode does: one that pays, and
// ones that are declined with Stripe's own messages. Nothing real is ever charged, so any other
// number is refused with a hint.

export type CardOutcome =
  { ok: true; brand: string; last4: string } | { ok: false; field: "cardNumber" | "expiry" | "cvc"; code: string; message: string };

const DECLINES: Record<string, { code: string; message: string }> = {
  "4000000000000002": { code: "card_declined", message: "Your card was declined." },
  "4000000000009995": { code: "insufficient_funds", message: "Your card has insufficient funds." },
  "4000000000000069": { code: "expired_card", message: "Your card has expired." },
};
const PAYS = new Set(["4242424242424242", "5555555555554444"]);

const digitsOf = (value: string) => value.replace(/[\s-]/g, "");

function luhn(digits: string) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** What paying with this card comes to; `today` decides whether the expiry date has passed. */
export function judgeCard(card: { cardNumber: string; expiry: string; cvc: string }, today: Date): CardOutcome {
  const number = digitsOf(card.cardNumber);
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
    return { ok: false, field: "cardNumber", code: "incorrect_number", message: "Your card number is incorrect." };
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
  const month = Number(expiry?.[1]);
  if (!expiry || month < 1 || month > 12) {
    return { ok: false, field: "expiry", code: "invalid_expiry", message: "Enter the expiry date as MM / YY." };
  }
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (year * 12 + month < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) {
    return { ok: false, field: "expiry", code: "invalid_expiry_year", message: "Your card's expiration date is in the past." };
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    return { ok: false, field: "cvc", code: "invalid_cvc", message: "Your card's security code is incomplete." };
  }
  const decline = DECLINES[number];
  if (decline) return { ok: false, field: "cardNumber", ...decline };
  if (!PAYS.has(number)) {
    return {
      ok: false,
      field: "cardNumber",
      code: "card_declined",
      message: "Use a test card: 4242 4242 4242 4242 pays; nothing is charged here.",
    };
  }
  return { ok: true, brand: number.startsWith("5") ? "mastercard" : "visa", last4: number.slice(-4) };
}
