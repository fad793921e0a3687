import { SMTPServer } from "smtp-server";
import { freePort } from "./global-database";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startSmtpSink() {
  const received: ReceivedMail[] = [];
  /** Addresses whose next delivery is refused once with a temporary error (452), to exercise retries. */
  const refuseOnce = new Set<string>();
  /**
   * Addresses whose next message is read and then never answered: the sender waits, as on a stuck
   * connection, until it gives up or dies. `held` counts the messages held so.
   */
  const holdOnce = new Set<string>();
  const held: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuseOnce.delete(address.address)) {
        const error = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 452 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        };
        const hold = mail.to.find((address) => holdOnce.has(address));
        if (hold) {
          holdOnce.delete(hold);
          held.push(mail);
          return;
        }
        received.push(mail);
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseOnce,
    holdOnce,
    held,
    to: (address: string) => received.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The raw message with quoted-printable soft line breaks undone, for searching links. */
export const unfold = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");

/** Quoted-printable text as what it says: `=XX` bytes decoded as UTF-8 (soft line breaks already undone). */
function decodeQuotedPrintable(text: string) {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === "=" ? /^[0-9A-F]{2}$/i.exec(text.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A message's subject (its header unfolded, encoded words decoded) and its body as text, to read what it says. */
export function readMail(mail: ReceivedMail) {
  const split = mail.raw.search(/\r?\n\r?\n/);
  const headers = mail.raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const subject = (/^Subject: (.*)$/im.exec(headers)?.[1] ?? "").replace(
    /=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi,
    (_, encoding: string, data: string) =>
      encoding.toLowerCase() === "b" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
  return { subject, text: decodeQuotedPrintable(mail.raw.slice(split).replace(/=\r?\n/g, "")) };
}
