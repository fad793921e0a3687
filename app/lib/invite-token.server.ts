import crypto from "node:crypto";
import { sessionSecrets } from "./session-secret.server";

/**
 * The token in an invitee's personal link, derived from their RSVP id with the
 * server secret: every invitation and reminder carries the same link, a retried
 * job rebuilds it exactly, and only its hash is stored.
 */
export function inviteTokenFor(rsvpId: string) {
  return crypto.createHmac("sha256", sessionSecrets()[0]!).update(`invite:${rsvpId}`).digest("base64url");
}

/** The token of an invitee's unsubscribe link ("stop messages about this Chorus"). */
export function unsubscribeTokenFor(rsvpId: string) {
  return crypto.createHmac("sha256", sessionSecrets()[0]!).update(`unsubscribe:${rsvpId}`).digest("base64url");
}
