// Money is integer minor units (cents) with a lower-case ISO currency code. No floating point
// touches an amount: shares are computed on integers and rounded half-up.

export const CURRENCY = "usd";

/** `amount × numerator / denominator`, rounded half-up (amounts are never negative). */
export function shareOf(amount: number, numerator: number, denominator: number) {
  if (amount < 0 || numerator < 0 || denominator <= 0) throw new RangeError("Shares are taken of non-negative amounts.");
  return Math.floor((amount * numerator * 2 + denominator) / (denominator * 2));
}

/** "$5.00", "€12.50": for pages, mails and invoices. */
export function formatMoney(amount: number, currency: string = CURRENCY) {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);
}
