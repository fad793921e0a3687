import { authTokens, type AuthTokenKind } from "drizzle/schema";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { hashToken, randomToken } from "~/lib/tokens.server";

/**
 * Issues a single-use token of one kind for a user, voiding any earlier unused
 * one of the same kind, and returns the raw token (only its hash is stored).
 */
export async function issueToken(db: Db, input: { userId: string; kind: AuthTokenKind; ttlMs: number; newEmail?: string }) {
  const token = randomToken();
  const now = new Date();
  await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.userId, input.userId), eq(authTokens.kind, input.kind), isNull(authTokens.usedAt)));
  await db.insert(authTokens).values({
    userId: input.userId,
    kind: input.kind,
    tokenHash: hashToken(token),
    newEmail: input.newEmail,
    expiresAt: new Date(now.getTime() + input.ttlMs),
  });
  return token;
}

export type ConsumedToken = { ok: true; userId: string; newEmail: string | null } | { ok: false; reason: "unknown" | "used" | "expired" };

/** Marks a token used, atomically, so two clicks on one link cannot both succeed. */
export async function consumeToken(db: Db, token: string, kind: AuthTokenKind): Promise<ConsumedToken> {
  const tokenHash = hashToken(token);
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.kind, kind), isNull(authTokens.usedAt)))
    .returning();
  if (row && row.expiresAt > new Date()) return { ok: true, userId: row.userId, newEmail: row.newEmail };
  if (row) return { ok: false, reason: "expired" };
  const [existing] = await db
    .select({ usedAt: authTokens.usedAt })
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.kind, kind)))
    .limit(1);
  return { ok: false, reason: existing ? "used" : "unknown" };
}

/** Reads a token without using it up (to show the reset form only for a live link). */
export async function peekToken(db: Db, token: string, kind: AuthTokenKind) {
  const [row] = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.kind, kind)))
    .limit(1);
  if (!row) return { ok: false as const, reason: "unknown" as const };
  if (row.usedAt) return { ok: false as const, reason: "used" as const };
  if (row.expiresAt <= new Date()) return { ok: false as const, reason: "expired" as const };
  return { ok: true as const, userId: row.userId };
}
