import type { Db } from "~/lib/db.server";
import { insertOutboxMessage } from "~/models/outbox.server";
import type { MailMessage, MailProvider } from "./mail-port";

/** Keeps mail in PostgreSQL, readable at /dev/outbox, for machines without an SMTP server. */
export function outboxMailProvider(db: () => Db): MailProvider {
  return {
    name: "outbox",
    async send(message: MailMessage) {
      await insertOutboxMessage(db(), { channel: "email", ...message });
    },
  };
}
