import { z } from "zod";

// A postal address that a print or fulfilment service can deliver to. Everything Chorus sends by post
// (a DVD, a keepsake, a postcard) takes it in this one shape, checked by the same rules, so a person
// sees the same messages whatever they order.

export interface PostalAddress {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  /** State, province or county: required where the post needs it (see REGION_REQUIRED). */
  region: string | null;
  postalCode: string;
  /** ISO 3166-1 alpha-2, upper-case. */
  country: string;
}

/** Countries whose post will not deliver without a state or province. */
const REGION_REQUIRED: Readonly<Record<string, string>> = {
  US: "Enter the state, like NY.",
  CA: "Enter the province, like ON.",
  AU: "Enter the state, like NSW.",
};

const US_STATES = new Set(
  (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA " +
    "RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR VI AA AE AP"
  ).split(" "),
);

/** Postal code shapes the post of each country uses, with an example a person can follow. */
const POSTAL_CODES: Readonly<Record<string, { pattern: RegExp; example: string }>> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, example: "10001 or 10001-1234" },
  CA: { pattern: /^[A-Z]\d[A-Z] \d[A-Z]\d$/, example: "K1A 0B1" },
  GB: { pattern: /^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/, example: "SW1A 1AA" },
  AU: { pattern: /^\d{4}$/, example: "2000" },
  NZ: { pattern: /^\d{4}$/, example: "6011" },
  DE: { pattern: /^\d{5}$/, example: "10115" },
  FR: { pattern: /^\d{5}$/, example: "75001" },
  ES: { pattern: /^\d{5}$/, example: "28001" },
  IT: { pattern: /^\d{5}$/, example: "00118" },
  NL: { pattern: /^\d{4} [A-Z]{2}$/, example: "1012 AB" },
  IE: { pattern: /^[A-Z]\d[\dW] [A-Z\d]{4}$/, example: "D02 X285" },
};
const ANY_POSTAL_CODE = /^[A-Z0-9][A-Z0-9 -]{1,10}[A-Z0-9]$/;

/** Writes a postal code the way its country's post prints it: upper-case, one space where one belongs. */
function normalisePostalCode(country: string, code: string): string {
  const compact = code.toUpperCase().replace(/\s+/g, "");
  switch (country) {
    case "CA":
    case "GB":
    case "IE":
      return compact.length > 3 ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : compact;
    case "NL":
      return compact.length === 6 ? `${compact.slice(0, 4)} ${compact.slice(4)}` : compact;
    default:
      return code.trim().toUpperCase().replace(/\s+/g, " ");
  }
}

const line = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(max, `Use at most ${max} characters for the ${label}.`);

const optionalLine = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters for the ${label}.`)
    .optional()
    .nullable()
    .transform((text) => text || null);

/**
 * An address as a form or an API call sends it, for delivery to one of `countries` (the codes the
 * service that will post it serves). The answer is normalised: country and postal code upper-case,
 * a US state as its two letters.
 */
export const postalAddressInput = (countries: ReadonlySet<string>) =>
  z
    .object({
      name: line("name of the person it goes to", 80),
      line1: line("street address", 100),
      line2: optionalLine("second address line", 100),
      city: line("town or city", 60),
      region: optionalLine("state or region", 60),
      postalCode: line("postal code", 12),
      country: z
        .string({ error: "Choose the country." })
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, "Choose the country."),
    })
    .transform((address, ctx): PostalAddress => {
      const { country } = address;
      if (!countries.has(country)) {
        ctx.addIssue({ code: "custom", path: ["country"], message: "We cannot post to this country yet." });
        return z.NEVER;
      }
      const postalCode = normalisePostalCode(country, address.postalCode);
      const shape = POSTAL_CODES[country];
      if (shape ? !shape.pattern.test(postalCode) : !ANY_POSTAL_CODE.test(postalCode)) {
        ctx.addIssue({
          code: "custom",
          path: ["postalCode"],
          message: shape ? `Enter the postal code like ${shape.example}.` : "Enter the postal code as the post writes it.",
        });
      }
      let region = address.region;
      const regionMessage = REGION_REQUIRED[country];
      if (regionMessage && !region) ctx.addIssue({ code: "custom", path: ["region"], message: regionMessage });
      if (country === "US" && region) {
        region = region.toUpperCase();
        if (!US_STATES.has(region))
          ctx.addIssue({ code: "custom", path: ["region"], message: "Enter the state as its two letters, like NY." });
      }
      return { ...address, region, postalCode };
    });

/** The address as lines for a label, a preview or an e-mail. */
export function addressLines(address: PostalAddress): string[] {
  const place = [address.city, address.region, address.postalCode].filter(Boolean).join(" ");
  return [address.name, address.line1, address.line2, place, address.country].filter((l): l is string => Boolean(l));
}
