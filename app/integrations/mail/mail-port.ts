export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** One way to deliver mail: SMTP in real deployments, the local outbox otherwise. */
export interface MailProvider {
  readonly name: string;
  send(message: MailMessage): Promise<void>;
}
