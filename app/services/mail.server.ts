import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";
import type { MailMessage, MailProvider } from "~/integrations/mail/mail-port";
import { outboxMailProvider } from "~/integrations/mail/outbox.server";
import { smtpMailProvider } from "~/integrations/mail/smtp.server";

export function mailProvider(): MailProvider {
  return singleton("mailProvider", () => {
    const { SMTP_URL, MAIL_FROM } = env();
    return SMTP_URL ? smtpMailProvider(SMTP_URL, MAIL_FROM) : outboxMailProvider(db);
  });
}

export const outboxEnabled = () => !env().SMTP_URL && env().NODE_ENV !== "production";

export async function sendMail(message: MailMessage) {
  await mailProvider().send(message);
}
