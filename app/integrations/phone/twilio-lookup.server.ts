import { twilioClient, type TwilioSettings } from "../sms/twilio.server";
import type { PhoneLookupProvider } from "./phone-lookup-port";

/** Twilio Lookup v2 with line type intelligence: tells a mobile that can take texts from a landline. */
export function twilioPhoneLookup(settings: Omit<TwilioSettings, "from">): PhoneLookupProvider {
  const client = twilioClient({ ...settings, from: "" });
  return {
    name: "twilio",
    async lookup(e164: string) {
      const result = await client.lookups.v2.phoneNumbers(e164).fetch({ fields: "line_type_intelligence" });
      const lineType = (result.lineTypeIntelligence as { type?: string } | null)?.type ?? null;
      return { valid: result.valid, phoneNumber: result.phoneNumber ?? null, countryCode: result.countryCode ?? null, lineType };
    },
  };
}
