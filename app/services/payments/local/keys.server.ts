import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

export interface LocalPaymentKeys {
  /** The API key the app's SDK client sends to the local service. */
  secretKey: string;
  /** What the local service signs its webhooks with, and the webhook route checks them against. */
  webhookSecret: string;
}

/**
 * The local payment service's keys, derived from a random secret made once and kept in the data
 * folder (like the session secret), so they survive restarts and every process of one machine
 * (web and worker) agrees on them without any set-up.
 */
export function localPaymentKeys(): LocalPaymentKeys {
  return singleton("localPaymentKeys", () => {
    const file = path.join(env().DATA_DIR, "local-payments-secret");
    let secret: string;
    try {
      secret = fs.readFileSync(file, "utf8").trim();
    } catch {
      secret = crypto.randomBytes(32).toString("base64url");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // wx: a process that lost the race to create it reads the winner's.
      try {
        fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      } catch {
        secret = fs.readFileSync(file, "utf8").trim();
      }
    }
    const derive = (purpose: string) => crypto.createHmac("sha256", secret).update(purpose).digest("hex");
    return { secretKey: `sk_test_local_${derive("api-key")}`, webhookSecret: `whsec_local_${derive("webhook")}` };
  });
}

/** Whether a presented API key is the local service's (in constant time). */
export function isLocalSecretKey(presented: string) {
  const expected = Buffer.from(localPaymentKeys().secretKey);
  const given = Buffer.from(presented);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
