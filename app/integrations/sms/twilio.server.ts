import twilio from "twilio";
import type RequestClient from "twilio/lib/base/RequestClient";
import type { SmsMessage, SmsProvider } from "./sms-port";

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  /** Replaces the SDK's HTTP client (tests record requests at the HTTP boundary). */
  httpClient?: RequestClient;
}

export const twilioClient = (settings: TwilioSettings) =>
  twilio(settings.accountSid, settings.authToken, settings.httpClient ? { httpClient: settings.httpClient } : undefined);

export function twilioSmsProvider(settings: TwilioSettings): SmsProvider {
  const client = twilioClient(settings);
  return {
    name: "twilio",
    async send(message: SmsMessage) {
      await client.messages.create({ to: message.to, from: settings.from, body: message.body });
    },
  };
}
