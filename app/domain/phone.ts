import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

export interface ParsedPhone {
  /** E.164, the one form we store: "+14155550123". */
  e164: string;
  country: string | null;
}

/**
 * Reads a phone number typed by a person: international ("+44 7700 900123") or
 * national with the inviter's country ("07700 900123" in GB). Null when it cannot
 * be a real number.
 */
export function parsePhone(input: string, defaultCountry: string = "US"): ParsedPhone | null {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > 32) return null;
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry.toUpperCase() as CountryCode);
  if (!parsed || !parsed.isValid()) return null;
  return { e164: parsed.number, country: parsed.country ?? null };
}
