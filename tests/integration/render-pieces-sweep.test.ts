import fs from "node:fs/promises";
import { renderPieces } from "drizzle/schema";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findRenderPiece } from "~/models/render-piece.server";
import { storage } from "~/services/media/storage.server";
import { storedPieces, sweepUnusedRenderPieces } from "~/services/render/render-pieces.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";

const DAY = 24 * 60 * 60 * 1000;

let server: RunningServer;
let dir: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  dir = await makeTempDir("render-pieces-sweep");
  server = await startTestServer({ DATA_DIR: dir.path("data"), RENDER_PIECE_RETENTION_DAYS: "30", RUN_WORKER: "false" });
});
afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

/** A stored piece of two files, last used `daysAgo` days ago. */
async function piece(key: string, daysAgo: number) {
  const files: Record<string, string> = {};
  for (const name of ["body", "audio"]) {
    files[name] = dir.path(`${key}-${name}.${name === "body" ? "mp4" : "wav"}`);
    await fs.writeFile(files[name]!, `${key} ${name}`);
  }
  await storedPieces().put(key, "clip", files, 24);
  await db()
    .update(renderPieces)
    .set({ lastUsedAt: new Date(Date.now() - daysAgo * DAY) })
    .where(sql`${renderPieces.key} = ${key}`);
  return (await findRenderPiece(db(), key))!;
}

const stored = async (files: Record<string, string>) =>
  Promise.all(Object.values(files).map(async (key) => (await storage().stat(key)) !== null));

describe("the render-pieces sweep", () => {
  test("removes pieces unused for longer than RENDER_PIECE_RETENTION_DAYS, files and all; keeps the rest", async () => {
    const old = await piece("sweep-old", 45);
    const recent = await piece("sweep-recent", 3);
    // Old, but looked up by a render just now: that marks it used.
    const reused = await piece("sweep-reused", 60);
    expect(await storedPieces().get("sweep-reused")).not.toBeNull();

    expect(await sweepUnusedRenderPieces()).toBeGreaterThanOrEqual(1);

    expect(await findRenderPiece(db(), old.key)).toBeNull();
    expect(await stored(old.files)).toEqual([false, false]);
    // A render asking for it now finds nothing and renders it again.
    expect(await storedPieces().get(old.key)).toBeNull();
    for (const kept of [recent, reused]) {
      expect(await findRenderPiece(db(), kept.key)).not.toBeNull();
      expect(await stored(kept.files)).toEqual([true, true]);
    }
  });

  test("works through more pieces than one batch", async () => {
    const keys = Array.from({ length: 205 }, (_, i) => `sweep-many-${i}`);
    for (const key of keys) await piece(key, 31);
    expect(await sweepUnusedRenderPieces()).toBeGreaterThanOrEqual(205);
    for (const key of [keys[0]!, keys[204]!]) expect(await findRenderPiece(db(), key)).toBeNull();
  });
});
