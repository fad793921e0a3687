/** An amount in minor units (cents) as a price, e.g. 1999 "usd" → "$19.99"; currencies without minor units stay whole. */
export function formatMoney(minorUnits: number, currency: string) {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}
