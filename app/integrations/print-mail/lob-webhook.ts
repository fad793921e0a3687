import crypto from "node:crypto";
import { z } from "zod";
import type { MailingStatus } from "./print-mail-port";

// Lob's webhooks: each event is signed with the webhook's secret, `Lob-Signature` being the hex
// HMAC-SHA256 of `Lob-Signature-Timestamp + "." + the raw body`. An event is taken only with a
// signature that verifies (compared in constant time) and a timestamp within a few minutes of now,
// so a captured event cannot be replayed later; one replayed within the window is caught by its id.

/** How far the signature's timestamp may be from our clock. */
export const LOB_SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/** Why an event was refused: no or a wrong signature, a timestamp out of the window, or not an event. */
export class LobWebhookRefused extends Error {
  override name = "LobWebhookRefused";
  constructor(
    readonly reason: "signature" | "stale" | "shape",
    message: string,
  ) {
    super(message);
  }
}

export const isLobWebhookRefused = (error: unknown): error is LobWebhookRefused =>
  error instanceof Error && error.name === "LobWebhookRefused";

/** The signature header of `rawBody` at `timestamp`, as Lob makes it. */
export function lobSignature(secret: string, timestamp: string, rawBody: Buffer | string) {
  return crypto.createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/** A timestamp as Lob may send it: Unix seconds, Unix milliseconds, or an ISO 8601 date. */
function momentOf(timestamp: string) {
  if (/^\d{1,16}$/.test(timestamp)) {
    const value = Number(timestamp);
    return value > 1e12 ? value : value * 1000;
  }
  return Date.parse(timestamp);
}

const lobEvent = z.object({
  id: z.string().min(1).max(200),
  event_type: z.object({ id: z.string().min(1).max(100) }),
  reference_id: z.string().max(200).optional(),
  body: z
    .object({ id: z.string().max(200).optional(), expected_delivery_date: z.string().max(40).nullish() })
    .loose()
    .optional(),
});

export interface LobEvent {
  id: string;
  type: string;
  /** Lob's id of the postcard the event is about. */
  postcardId: string | null;
  expectedDelivery: string | null;
}

/**
 * The event of a request whose signature verifies; throws LobWebhookRefused otherwise (no secret
 * set refuses everything). A verified body that is not an event of Lob's shape is refused too.
 */
export function verifyLobWebhook(
  rawBody: Buffer,
  headers: { signature: string | null; timestamp: string | null },
  secret: string | undefined,
  now = Date.now(),
): LobEvent {
  const { signature, timestamp } = headers;
  if (!secret || !signature || !timestamp) throw new LobWebhookRefused("signature", "The webhook is not signed.");
  const expected = Buffer.from(lobSignature(secret, timestamp, rawBody), "hex");
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw new LobWebhookRefused("signature", "The webhook's signature does not verify.");
  }
  const moment = momentOf(timestamp);
  if (!Number.isFinite(moment) || Math.abs(now - moment) > LOB_SIGNATURE_TOLERANCE_MS) {
    throw new LobWebhookRefused("stale", "The webhook's signature is too old or from the future.");
  }
  let parsed;
  try {
    parsed = lobEvent.safeParse(JSON.parse(rawBody.toString("utf8")));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) throw new LobWebhookRefused("shape", "The webhook's body is not an event.");
  const event = parsed.data;
  return {
    id: event.id,
    type: event.event_type.id,
    postcardId: event.body?.id ?? event.reference_id ?? null,
    expectedDelivery: event.body?.expected_delivery_date ?? null,
  };
}

// Lob's postcard events, as the few states a person needs (the rest, a rendered proof say, change nothing).
const MAILING_OF_EVENT: Readonly<Record<string, MailingStatus>> = {
  "postcard.created": "created",
  "postcard.mailed": "mailed",
  "postcard.in_transit": "mailed",
  "postcard.in_local_area": "mailed",
  "postcard.processed_for_delivery": "mailed",
  "postcard.re-routed": "mailed",
  "postcard.delivered": "delivered",
  "postcard.returned_to_sender": "returned",
};

/** The state a postcard event says the card is in; null for an event that says none. */
export const mailingOfEvent = (type: string): MailingStatus | null => MAILING_OF_EVENT[type] ?? null;
