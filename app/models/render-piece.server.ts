import { eq, sql } from "drizzle-orm";
import { renderPieces } from "../../drizzle/schema/index";
import type { Db } from "~/lib/db.server";

export async function findRenderPiece(db: Db, key: string) {
  const [row] = await db.select().from(renderPieces).where(eq(renderPieces.key, key)).limit(1);
  return row ?? null;
}

export async function saveRenderPiece(db: Db, values: { key: string; kind: string; files: Record<string, string>; frames: number }) {
  const [row] = await db
    .insert(renderPieces)
    .values(values)
    .onConflictDoUpdate({ target: renderPieces.key, set: { files: values.files, frames: values.frames, lastUsedAt: sql`now()` } })
    .returning();
  return row!;
}

export async function touchRenderPiece(db: Db, key: string) {
  await db.update(renderPieces).set({ lastUsedAt: sql`now()` }).where(eq(renderPieces.key, key));
}

export async function deleteRenderPiece(db: Db, key: string) {
  await db.delete(renderPieces).where(eq(renderPieces.key, key));
}
