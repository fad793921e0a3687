export interface SmsMessage {
  /** E.164 number. */
  to: string;
  body: string;
}

/** One way to send text messages: Twilio when configured, the local outbox otherwise. */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}
