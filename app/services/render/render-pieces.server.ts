import path from "node:path";
import { tryAdvisoryLock, waitForAdvisoryLock } from "~/lib/advisory-lock.server";
import { isDatabaseUnavailable } from "~/lib/database-errors.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import {
  deleteRenderPiece,
  findRenderPiece,
  saveRenderPiece,
  takeUnusedRenderPieces,
  touchRenderPiece,
} from "~/models/render-piece.server";
import type { PieceClaims, PieceStore, StoredPiece } from "~/render/piece-store";
import { storage } from "~/services/media/storage.server";

const CONTENT_TYPES: Record<string, string> = { ".mp4": "video/mp4", ".mov": "video/quicktime", ".wav": "audio/wav", ".m4a": "audio/mp4" };

/** The family of the pieces' locks: a piece's lock is `hashtextextended(key, 7)`, as it always was. */
const PIECE_LOCKS = 7;

/**
 * A piece's claim is a session advisory lock on a connection of its own (advisory-lock.server.ts),
 * held while the piece is made; it goes with the connection when the process dies. Another process
 * wanting the piece waits for the lock blocked in PostgreSQL, with no render slot and no queries,
 * and is let go the moment the maker is done.
 */
const pieceClaims: PieceClaims = {
  async claim(key, work) {
    const lock = await tryAdvisoryLock({ name: key, family: PIECE_LOCKS });
    if (!lock) return { held: false };
    try {
      return { held: true, value: await work() };
    } finally {
      await lock.release();
    }
  },
  async waitFor(key, signal) {
    try {
      const lock = await waitForAdvisoryLock({ name: key, family: PIECE_LOCKS }, signal);
      await lock.release();
    } catch (error) {
      // The connection was lost while waiting (the database went away, or the session was ended):
      // the piece is looked up again, which tells whether the database is there (decision 020).
      if (!isDatabaseUnavailable(error)) throw error;
    }
  },
};

/**
 * Rendered pieces kept in storage under their key, listed in PostgreSQL, so any worker can reuse
 * what another rendered. Files are fetched to local paths for ffmpeg; `release` drops the copies
 * (a no-op on local disk, where the stored file is used in place).
 */
export function storedPieces(): PieceStore & { release(): Promise<void> } {
  const releases: (() => Promise<void>)[] = [];
  const local = async (key: string) => {
    const copy = await storage().localCopy(key);
    releases.push(copy.release);
    return copy.path;
  };
  /** The piece's row when every file of it is stored, marked used; a piece missing a file is forgotten. */
  const lookUp = async (key: string) => {
    const row = await findRenderPiece(db(), key);
    if (!row) return null;
    for (const storageKey of Object.values(row.files)) {
      // A piece whose files went missing is rendered again, never joined half.
      if (!(await storage().stat(storageKey))) {
        await deleteRenderPiece(db(), key);
        return null;
      }
    }
    await touchRenderPiece(db(), key);
    return row;
  };
  return {
    async has(key) {
      return (await lookUp(key)) !== null;
    },
    async get(key, only) {
      const row = await lookUp(key);
      if (!row) return null;
      const files: Record<string, string> = {};
      for (const [name, storageKey] of Object.entries(row.files)) {
        if (!only || only.includes(name)) files[name] = await local(storageKey);
      }
      return { files, frames: row.frames } satisfies StoredPiece;
    },
    async put(key, kind, files, frames, timing) {
      const stored: Record<string, string> = {};
      for (const [name, file] of Object.entries(files)) {
        const extension = path.extname(file);
        stored[name] = `render-pieces/${key.slice(0, 2)}/${key}/${name}${extension}`;
        await storage().putFile(stored[name]!, file, CONTENT_TYPES[extension] ?? "application/octet-stream");
      }
      await saveRenderPiece(db(), {
        key,
        kind,
        files: stored,
        frames,
        resolution: timing?.resolution ?? null,
        renderSeconds: timing?.seconds ?? null,
        renderedFrames: timing?.frames ?? null,
      });
      const paths: Record<string, string> = {};
      for (const [name, storageKey] of Object.entries(stored)) paths[name] = await local(storageKey);
      return { files: paths, frames };
    },
    claims: pieceClaims,
    async release() {
      await Promise.all(releases.splice(0).map((release) => release().catch(() => {})));
    },
  };
}

const SWEEP_BATCH = 200;
const DAY = 24 * 60 * 60 * 1000;

/**
 * The render-pieces sweep: pieces no render has used for RENDER_PIECE_RETENTION_DAYS are removed
 * from storage. Every render and every render-ahead of an event looks its pieces up, which marks
 * them used, so only pieces of arrangements nobody works on any more go; were one needed again,
 * it would be rendered again. Resolves to how many pieces were removed.
 */
export async function sweepUnusedRenderPieces(now = new Date()) {
  const cutoff = new Date(now.getTime() - env().RENDER_PIECE_RETENTION_DAYS * DAY);
  let removed = 0;
  for (;;) {
    // The row goes first: a render looking the piece up from now on renders it again rather than
    // finding files half gone.
    const batch = await takeUnusedRenderPieces(db(), cutoff, SWEEP_BATCH);
    for (const piece of batch) {
      for (const key of Object.values(piece.files)) await storage().delete(key);
    }
    removed += batch.length;
    if (batch.length < SWEEP_BATCH) return removed;
  }
}
