import { localPhoneLookup } from "~/integrations/phone/local-lookup.server";
import type { PhoneLookupProvider } from "~/integrations/phone/phone-lookup-port";
import { twilioPhoneLookup } from "~/integrations/phone/twilio-lookup.server";
import { outboxSmsProvider } from "~/integrations/sms/outbox.server";
import type { SmsMessage, SmsProvider } from "~/integrations/sms/sms-port";
import { twilioSmsProvider } from "~/integrations/sms/twilio.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

const twilioSettings = () => {
  const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER } = env();
  return TWILIO_ACCOUNT_SID && TWILIO_AUTH_TOKEN
    ? { accountSid: TWILIO_ACCOUNT_SID, authToken: TWILIO_AUTH_TOKEN, from: TWILIO_FROM_NUMBER ?? "" }
    : null;
};

export function smsProvider(): SmsProvider {
  return singleton("smsProvider", () => {
    const settings = twilioSettings();
    return settings?.from ? twilioSmsProvider(settings) : outboxSmsProvider(db);
  });
}

export function phoneLookupProvider(): PhoneLookupProvider {
  return singleton("phoneLookupProvider", () => {
    const settings = twilioSettings();
    return settings ? twilioPhoneLookup(settings) : localPhoneLookup;
  });
}

export const sendSms = (message: SmsMessage) => smsProvider().send(message);
