import nodemailer from "nodemailer";
import type { MailMessage, MailProvider } from "./mail-port";

export function smtpMailProvider(smtpUrl: string, from: string): MailProvider {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    name: "smtp",
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
  };
}
