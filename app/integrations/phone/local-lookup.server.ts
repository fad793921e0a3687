import { parsePhone } from "~/domain/phone";
import type { PhoneLookupProvider } from "./phone-lookup-port";

/** Without Twilio: the number's shape is checked (libphonenumber), its line type is unknown. */
export const localPhoneLookup: PhoneLookupProvider = {
  name: "local",
  async lookup(e164: string) {
    const parsed = parsePhone(e164);
    return { valid: !!parsed, phoneNumber: parsed?.e164 ?? null, countryCode: parsed?.country ?? null, lineType: null };
  },
};
