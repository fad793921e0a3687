import { renderPieces } from "drizzle/schema";
import { and, desc, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function findRenderPiece(db: Db, key: string) {
  const [row] = await db.select().from(renderPieces).where(eq(renderPieces.key, key)).limit(1);
  return row ?? null;
}

export async function saveRenderPiece(
  db: Db,
  values: {
    key: string;
    kind: string;
    files: Record<string, string>;
    frames: number;
    resolution?: string | null;
    renderSeconds?: number | null;
    renderedFrames?: number | null;
  },
) {
  const [row] = await db
    .insert(renderPieces)
    .values(values)
    .onConflictDoUpdate({
      target: renderPieces.key,
      set: {
        files: values.files,
        frames: values.frames,
        resolution: values.resolution ?? null,
        renderSeconds: values.renderSeconds ?? null,
        renderedFrames: values.renderedFrames ?? null,
        lastUsedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

/** Which of `keys` are stored (one query, whatever the number of pieces). */
export async function findStoredRenderPieceKeys(db: Db, keys: readonly string[]) {
  if (!keys.length) return new Set<string>();
  const rows = await db
    .select({ key: renderPieces.key })
    .from(renderPieces)
    .where(inArray(renderPieces.key, [...new Set(keys)]));
  return new Set(rows.map((row) => row.key));
}

/** The latest pieces made at `resolution` with their timing, newest first. */
export async function listRecentRenderPieceTimings(db: Db, resolution: string, limit: number) {
  const rows = await db
    .select({ kind: renderPieces.kind, frames: renderPieces.renderedFrames, renderSeconds: renderPieces.renderSeconds })
    .from(renderPieces)
    .where(and(eq(renderPieces.resolution, resolution), isNotNull(renderPieces.renderSeconds), isNotNull(renderPieces.renderedFrames)))
    .orderBy(desc(renderPieces.createdAt))
    .limit(limit);
  return rows.map((row) => ({ kind: row.kind, frames: row.frames!, renderSeconds: row.renderSeconds! }));
}

export async function touchRenderPiece(db: Db, key: string) {
  await db
    .update(renderPieces)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(renderPieces.key, key));
}

export async function deleteRenderPiece(db: Db, key: string) {
  await db.delete(renderPieces).where(eq(renderPieces.key, key));
}

/**
 * Removes up to `limit` pieces last used before `cutoff` and answers their keys and files. A
 * piece used again meanwhile (its `last_used_at` moved on) is left alone, as is one another sweep
 * is taking.
 */
export async function takeUnusedRenderPieces(db: Db, cutoff: Date, limit: number) {
  const stale = db
    .select({ key: renderPieces.key })
    .from(renderPieces)
    .where(lt(renderPieces.lastUsedAt, cutoff))
    .orderBy(renderPieces.lastUsedAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .delete(renderPieces)
    .where(and(inArray(renderPieces.key, stale), lt(renderPieces.lastUsedAt, cutoff)))
    .returning({ key: renderPieces.key, files: renderPieces.files });
}
