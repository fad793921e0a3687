import { createRequire } from "node:module";
import countries from "i18n-iso-countries";
import { singleton } from "~/lib/singleton.server";

export interface Country {
  /** ISO 3166-1 alpha-2. */
  code: string;
  name: string;
}

/** Every country with its English name (the maintained ISO 3166-1 list of i18n-iso-countries). */
function allCountries(): Country[] {
  return singleton("countries", () => {
    // The English names ship as JSON beside the package: read it through require, as Node and the build both allow.
    countries.registerLocale(createRequire(import.meta.url)("i18n-iso-countries/langs/en.json") as countries.LocaleData);
    return Object.entries(countries.getNames("en", { select: "official" })).map(([code, name]) => ({ code, name }));
  });
}

/** GET /v2/geo-countries: by name (the picker's order) or by code. */
export function listCountries(sortBy: "name" | "code" = "name") {
  const key = sortBy === "code" ? (c: Country) => c.code : (c: Country) => c.name;
  return [...allCountries()].sort((a, b) => key(a).localeCompare(key(b), "en"));
}

/** Whether a code is an ISO 3166-1 alpha-2 country we list. */
export const isCountryCode = (code: string) => allCountries().some((c) => c.code === code.toUpperCase());
