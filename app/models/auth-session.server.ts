import { sessions } from "drizzle/schema";
import { and, eq, gt, lt, ne } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { randomToken } from "~/lib/tokens.server";

export interface SessionRecord {
  userId: string | null;
  impersonatorId: string | null;
  data: Record<string, unknown>;
}

export async function insertSession(db: Db, record: SessionRecord, expiresAt: Date) {
  const id = randomToken();
  await db.insert(sessions).values({ id, ...record, expiresAt });
  return id;
}

export async function findLiveSession(db: Db, id: string) {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

export async function updateSession(db: Db, id: string, record: SessionRecord, expiresAt: Date) {
  await db
    .update(sessions)
    .set({ ...record, expiresAt })
    .where(eq(sessions.id, id));
}

export async function deleteSession(db: Db, id: string) {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Logs a user out everywhere except, optionally, the session that asked. */
export async function deleteSessionsOfUser(db: Db, userId: string, exceptId?: string) {
  const ofUser = eq(sessions.userId, userId);
  await db.delete(sessions).where(exceptId ? and(ofUser, ne(sessions.id, exceptId)) : ofUser);
}

export async function deleteExpiredSessions(db: Db) {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
