import { shareOf } from "./money";

// Tax on what Chorus sells (a digital service), by the buyer's billing country. Prices are shown
// without tax and tax is added on top ("exclusive"), on the subtotal after any promo code, and
// rounded half-up once on that total rather than per line (docs/decisions/018-what-payment-unlocks.md,
// "Prices and tax"). The table holds the standard rates on digital services in the countries we
// sell to most; a country not in it is charged no tax. These are the rates we charge, kept in one
// place so a change is one line and a test.

export interface TaxRate {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string;
  /** What the invoice calls it. */
  readonly label: string;
  /** Basis points: 2000 = 20 %. */
  readonly basisPoints: number;
}

const RATES: readonly TaxRate[] = [
  { country: "GB", label: "VAT", basisPoints: 2000 },
  { country: "IE", label: "VAT", basisPoints: 2300 },
  { country: "DE", label: "VAT", basisPoints: 1900 },
  { country: "FR", label: "VAT", basisPoints: 2000 },
  { country: "ES", label: "VAT", basisPoints: 2100 },
  { country: "IT", label: "VAT", basisPoints: 2200 },
  { country: "NL", label: "VAT", basisPoints: 2100 },
  { country: "SE", label: "VAT", basisPoints: 2500 },
  { country: "AU", label: "GST", basisPoints: 1000 },
  { country: "NZ", label: "GST", basisPoints: 1500 },
  { country: "CA", label: "GST", basisPoints: 500 },
];

/** The rate for a billing country; none (0) for a country not in the table or no country yet. */
export function taxRateFor(country: string | null | undefined): TaxRate {
  const code = (country ?? "").toUpperCase();
  return RATES.find((r) => r.country === code) ?? { country: code, label: "Tax", basisPoints: 0 };
}

/** Tax on an amount at a rate, rounded half-up to the minor unit. */
export const taxOn = (taxable: number, rate: Pick<TaxRate, "basisPoints">) => shareOf(taxable, rate.basisPoints, 10_000);

/** "20 %", "12.5 %". */
export const formatRate = (rate: Pick<TaxRate, "basisPoints">) => `${rate.basisPoints / 100} %`;
