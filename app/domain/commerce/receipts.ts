import { formatMoney } from "./money";

// What a receipt and a refund notice say (docs/decisions/048): what a payment was for in a phrase
// that fits a sentence ("Your $5.00 for 2 trees is refunded"), and how much of it came back.

/** "1 tree", "2 trees". */
export const treesPhrase = (count: number) => (count === 1 ? "1 tree" : `${count} trees`);

/** A catalogue product posted to someone: "a DVD of the video", "2 × DVD of the video". */
export function postedPhrase(productName: string, quantity: number) {
  if (quantity !== 1) return `${quantity} × ${productName}`;
  // "Printed photo book" reads "a printed photo book"; "DVD of the video" keeps its capitals.
  const name = /^[A-Z][a-z]/.test(productName) ? productName[0]!.toLowerCase() + productName.slice(1) : productName;
  return `a ${name}`;
}

export interface RefundFacts {
  /** What the payment was for, as a phrase ("a gift card", "your Chorus"). */
  what: string;
  amount: number;
  currency: string;
  /** Refunded in all, with this refund, and before it. */
  refunded: number;
  previously: number;
  /** "12 March 2026". */
  paidOn: string;
}

/** The refund notice's subject and the sentence that says what came back. */
export function refundWords(facts: RefundFacts) {
  const money = (amount: number) => formatMoney(amount, facts.currency);
  const paid = money(facts.amount);
  const now = money(facts.refunded - facts.previously);
  const full = facts.refunded >= facts.amount;
  const subject =
    full && facts.previously === 0 ? `Your ${paid} for ${facts.what} is refunded` : `${now} of your ${paid} for ${facts.what} is refunded`;
  const sentence = !full
    ? `We have refunded ${now} of the ${paid} you paid for ${facts.what} on ${facts.paidOn}.` +
      (facts.previously > 0 ? ` With what was refunded before, ${money(facts.refunded)} has come back to you.` : "")
    : facts.previously === 0
      ? `We have refunded the ${paid} you paid for ${facts.what} on ${facts.paidOn}, in full.`
      : `We have refunded the remaining ${now} of the ${paid} you paid for ${facts.what} on ${facts.paidOn}: all of it has now come back to you.`;
  return { subject, heading: full ? "Your payment is refunded" : "Part of your payment is refunded", sentence };
}
