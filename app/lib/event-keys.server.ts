import crypto from "node:crypto";
import { randomToken } from "./tokens.server";

/** privateKey and viewKey: 256 random bits, URL-safe. */
export const newEventKey = randomToken;

// Crockford's alphabet: no I, L, O or U, so a code read aloud over the phone survives.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The short code support asks for ("CH-7K2M9QXD"). 40 random bits. */
export function newEventCode() {
  const bytes = crypto.randomBytes(8);
  let code = "";
  for (const byte of bytes) code += ALPHABET[byte % 32];
  return `CH-${code}`;
}

/** Compares a key from a URL with the stored one without leaking timing. */
export function keysMatch(given: string | null | undefined, stored: string) {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
