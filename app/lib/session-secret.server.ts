import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";
import { singleton } from "./singleton.server";

/**
 * SESSION_SECRET when set (required in production). Otherwise a random secret is
 * made once and kept in the data folder, so log-ins survive restarts without any
 * set-up on a developer's machine.
 */
export function sessionSecrets(): string[] {
  return singleton("sessionSecrets", () => {
    const configured = env().SESSION_SECRET;
    if (configured) return [configured];
    const file = path.join(env().DATA_DIR, "session-secret");
    try {
      return [fs.readFileSync(file, "utf8").trim()];
    } catch {
      const secret = crypto.randomBytes(32).toString("base64url");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, secret, { mode: 0o600 });
      return [secret];
    }
  });
}
