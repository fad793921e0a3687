import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError } from "~/lib/http.server";
import { clearRateLimit, hitRateLimit, peekRateLimit } from "~/models/rate-limit.server";

function tooMany(resetAt: Date) {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new ApiError(
    429,
    "RATE_LIMITED",
    `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    undefined,
    { "Retry-After": String(seconds) },
  );
}

/** Counts this attempt; refuses once more than `limit` were made in the window. */
export async function countAttempt(key: string, limit: number) {
  const hit = await hitRateLimit(db(), key, env().RATE_LIMIT_WINDOW_SECONDS);
  if (hit.count > limit) throw tooMany(hit.resetAt);
}

/** Refuses if `key` already reached `limit` (failures are counted separately with recordFailure). */
export async function refuseIfExhausted(key: string, limit: number) {
  const hit = await peekRateLimit(db(), key);
  if (hit && hit.count >= limit) throw tooMany(hit.resetAt);
}

export async function recordFailure(key: string) {
  await hitRateLimit(db(), key, env().RATE_LIMIT_WINDOW_SECONDS);
}

/** Failures counted against `key` in its current window (0 when none). */
export async function failuresOf(key: string) {
  return (await peekRateLimit(db(), key))?.count ?? 0;
}

export const forgetAttempts = (key: string) => clearRateLimit(db(), key);

export const rateLimitKeys = {
  loginIp: (ip: string) => `login:ip:${ip}`,
  loginAccount: (email: string) => `login:account:${email.trim().toLowerCase()}`,
  loginAccountFromIp: (email: string, ip: string) => `login:account-ip:${email.trim().toLowerCase()}:${ip}`,
  resetIp: (ip: string) => `reset:ip:${ip}`,
  resetAccount: (email: string) => `reset:account:${email.trim().toLowerCase()}`,
  signupIp: (ip: string) => `signup:ip:${ip}`,
  lookupIp: (ip: string) => `lookup:ip:${ip}`,
};
