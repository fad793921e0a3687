import type { MailMessage, MailProvider } from "~/integrations/mail/mail-port";
import { outboxMailProvider } from "~/integrations/mail/outbox.server";
import { smtpMailProvider } from "~/integrations/mail/smtp.server";
import { db } from "~/lib/db.server";
import { env, isProduction } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

export function mailProvider(): MailProvider {
  return singleton("mailProvider", () => {
    const { SMTP_URL, MAIL_FROM } = env();
    return SMTP_URL ? smtpMailProvider(SMTP_URL, MAIL_FROM) : outboxMailProvider(db);
  });
}

/** With no SMTP server, mail is kept in the local outbox (`/dev/outbox`) instead of being sent. */
export const outboxEnabled = () => !env().SMTP_URL;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whether a browser at `clientIp` may read the outbox. It holds confirmation and password
 * links, so in production only a browser on this machine may (a fresh clone's `npm start`
 * opened at localhost); a server open to others sets SMTP_URL. Behind a proxy on the same
 * machine, TRUST_PROXY must be set so the client's own address is seen.
 */
export function outboxReadableBy(clientIp: string) {
  if (!outboxEnabled()) return false;
  return !isProduction() || LOOPBACK.test(clientIp);
}

export async function sendMail(message: MailMessage) {
  await mailProvider().send(message);
}
