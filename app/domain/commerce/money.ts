// Money is integer minor units (cents) with a lower-case ISO currency code. No floating point
// touches an amount: shares are computed on integers and rounded half-up.

export const CURRENCY = "usd";

/** `amount × numerator / denominator`, rounded half-up (amounts are never negative). */
export function shareOf(amount: number, numerator: number, denominator: number) {
  if (amount < 0 || numerator < 0 || denominator <= 0) throw new RangeError("Shares are taken of non-negative amounts.");
  return Math.floor((amount * numerator * 2 + denominator) / (denominator * 2));
}

/** "$5.00", "€12.50", "¥500": for pages, mails and invoices; currencies without minor units stay whole. */
export function formatMoney(amount: number, currency: string = CURRENCY) {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
