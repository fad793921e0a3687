import { startDrafts } from "drizzle/schema";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { randomToken } from "~/lib/tokens.server";

export async function insertDraft(db: Db, data: Record<string, unknown>, expiresAt: Date) {
  const id = randomToken();
  await db.insert(startDrafts).values({ id, data, expiresAt });
  return id;
}

export async function findLiveDraft(db: Db, id: string) {
  const [row] = await db
    .select()
    .from(startDrafts)
    .where(and(eq(startDrafts.id, id), gt(startDrafts.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

export async function updateDraft(db: Db, id: string, data: Record<string, unknown>, expiresAt: Date) {
  await db.update(startDrafts).set({ data, expiresAt }).where(eq(startDrafts.id, id));
}

export async function deleteDraft(db: Db, id: string) {
  await db.delete(startDrafts).where(eq(startDrafts.id, id));
}

export async function deleteExpiredDrafts(db: Db) {
  await db.delete(startDrafts).where(lt(startDrafts.expiresAt, new Date()));
}
