import { hash, verify } from "@node-rs/argon2";

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. `Algorithm` is a const enum the
// compiler cannot inline across packages here, so its value (Argon2id = 2) is written out.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string) {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so a missing account cannot be told apart by timing. */
export async function verifyAgainstNothing(password: string) {
  dummyHash ??= hashPassword("not-a-real-password-for-timing-only");
  await verifyPassword(await dummyHash, password);
  return false;
}
