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

/** How many minor units a currency has: 2 for dollars and euros, 0 for yen. */
export const minorDigits = (currency: string = CURRENCY) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;

/**
 * An amount typed in the currency's units ("2.50", "2,50", "$3", "500" yen) as minor units; null
 * when it is not a plain positive amount with at most the currency's decimals.
 */
export function parseMoney(typed: string, currency: string = CURRENCY): number | null {
  const text = typed
    .trim()
    .replace(/^[$€£¥]\s*/, "")
    .replace(",", ".");
  const digits = minorDigits(currency);
  const match = /^(\d{1,9})(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const amount = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return amount > 0 ? amount : null;
}

/** Minor units written in the currency's units without a symbol, for a form's field: 250 → "2.50". */
export const moneyInput = (amount: number, currency: string = CURRENCY) => {
  const digits = minorDigits(currency);
  return digits === 0 ? String(amount) : `${Math.floor(amount / 10 ** digits)}.${String(amount % 10 ** digits).padStart(digits, "0")}`;
};
