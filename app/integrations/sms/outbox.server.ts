import type { Db } from "~/lib/db.server";
import { insertOutboxMessage } from "~/models/outbox.server";
import type { SmsMessage, SmsProvider } from "./sms-port";

/** Keeps text messages in the same local outbox as mail (/dev/outbox). */
export function outboxSmsProvider(db: () => Db): SmsProvider {
  return {
    name: "outbox",
    async send(message: SmsMessage) {
      await insertOutboxMessage(db(), { channel: "sms", to: message.to, text: message.body });
    },
  };
}
