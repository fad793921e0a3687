// Rung pieces (docs/decisions/036): each video piece a render joins, also at every smaller size of
// the HLS ladder, so a published version's ladder is its rung pieces joined without re-encoding
// rather than a new encode of the whole video. Each is made once, from its stored full-size piece,
// in the render slots after any other kind of job.

import { setMaxListeners } from "node:events";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { runFfmpeg } from "~/media/run.server";
import { sha256Hex } from "./hash";
import { ladderRungs, rungPieceArgs, rungPieceSettings } from "./ladder";
import { keyFramesOf } from "./ladder.server";
import { pieceOnce } from "./piece-once.server";
import type { PieceStore, StoredPiece } from "./piece-store";
import { trackTimescale } from "./pieces/encoding";
import { expectFrames, mp4VideoKeyFrames } from "./pieces/verify.server";
import { joinedVideoPieces, type OutputProfile, type RenderPlan } from "./plan";
import { SLOT_PRIORITY } from "./slots.server";

/** The piece store's `kind` of a rung piece: not one of the pieces a render counts or times. */
const RUNG_PIECE_KIND = "rungs";

/** The rungs made piece by piece: every rung of the ladder but the top one, which copies the video. */
const encodedRungs = (profile: OutputProfile) => ladderRungs(profile.width, profile.height).filter((r) => !r.copy);

/**
 * A rung piece's key: its full-size piece's key and the settings it is made with, so a change to
 * the rungs' settings makes them again.
 */
const rungPieceKey = (pieceKey: string, profile: OutputProfile) =>
  sha256Hex(JSON.stringify({ rungsOf: pieceKey, ...rungPieceSettings(encodedRungs(profile), trackTimescale(profile)) }));

interface PlannedRungPiece {
  /** The full-size piece's key and frames. */
  key: string;
  frames: number;
  rungKey: string;
}

/** The rung piece of every video piece the plan joins, in join order. */
export function plannedRungPieces(plan: RenderPlan): PlannedRungPiece[] {
  return joinedVideoPieces(plan).map((piece) => ({ ...piece, rungKey: rungPieceKey(piece.key, plan.profile) }));
}

/** A full-size piece a rung piece is made from is no longer stored (swept). */
export class PieceGoneError extends Error {
  override name = "PieceGoneError";
}

/**
 * Makes a piece's rung piece in one ffmpeg run from its stored full-size piece, its key frames
 * where the full-size piece has its own, and keeps it: a file per rung, without timing (a rung
 * piece's time is no guide to the next render's).
 */
async function makeRungPiece(profile: OutputProfile, piece: PlannedRungPiece, store: PieceStore, workDir: string, signal?: AbortSignal) {
  const full = await store.get(piece.key, ["body"]);
  if (!full?.files.body) throw new PieceGoneError(`The piece ${piece.key} is no longer stored.`);
  const rungs = encodedRungs(profile);
  await mkdir(workDir, { recursive: true });
  const outputs = Object.fromEntries(rungs.map((r) => [r.name, path.join(workDir, `${r.name}.mp4`)]));
  try {
    const keyFrames = await keyFramesOf(full.files.body, signal);
    await runFfmpeg(rungPieceArgs(full.files.body, outputs, rungs, { keyFrames: keyFrames.frames, timescale: trackTimescale(profile) }), {
      signal,
    });
    for (const [name, file] of Object.entries(outputs)) {
      // Joined by frame count, as the full-size pieces are: one frame off would shift every rung after it.
      await expectFrames(file, piece.frames, signal);
      // And cut into segments at key frames: a rung with one more or one less would cut elsewhere.
      const own = (await mp4VideoKeyFrames(file)) ?? Array.from({ length: piece.frames }, (_, i) => i);
      if (own.join() !== keyFrames.frames.join()) {
        throw new Error(`The ${name} rung of ${piece.key} has key frames at ${own.join()}, not ${keyFrames.frames.join()}.`);
      }
    }
    return await store.put(piece.rungKey, RUNG_PIECE_KIND, outputs, piece.frames);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

interface RungPieceOptions {
  store: PieceStore;
  workDir: string;
  /** Stops it, whether waiting for a slot or running. */
  signal?: AbortSignal;
  /** Stops it only while it waits for a slot (or for another process making it): once running it finishes. */
  waiting?: AbortSignal;
  /** Fetch the stored piece's files (false: only tell that it is stored). */
  fetch: boolean;
}

/** The rung piece of `piece`: found, or made in a render slot after any other job, once whoever asks. */
export function rungPieceOnce(plan: RenderPlan, piece: PlannedRungPiece, options: RungPieceOptions) {
  const { store, signal, waiting } = options;
  const queued = waiting && signal ? AbortSignal.any([signal, waiting]) : (waiting ?? signal);
  return pieceOnce<StoredPiece | true>(piece.rungKey, {
    store,
    signal: queued,
    priority: SLOT_PRIORITY.rung,
    lookUp: async () => (options.fetch ? store.get(piece.rungKey) : (await store.has(piece.rungKey)) || null),
    make: () => makeRungPiece(plan.profile, piece, store, path.join(options.workDir, piece.rungKey), signal),
  });
}

/**
 * Every rung piece of the plan, made where missing (as many at a time as there are render slots):
 * each encoded rung's files in join order, by rung name, and how many were made and found. Throws
 * PieceGoneError when a full-size piece is no longer stored.
 */
export async function rungPiecesFor(plan: RenderPlan, options: { store: PieceStore; workDir: string; signal?: AbortSignal }) {
  // One failed piece stops the others.
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const pieces = plannedRungPieces(plan);
  const outcomes = await Promise.all(
    pieces.map((piece) =>
      rungPieceOnce(plan, piece, { ...options, signal, fetch: true }).catch((error: unknown) => {
        controller.abort();
        throw error;
      }),
    ),
  );
  const files = Object.fromEntries(
    encodedRungs(plan.profile).map((rung) => [
      rung.name,
      outcomes.map(({ value }) => {
        const file = (value as StoredPiece).files[rung.name];
        if (!file) throw new PieceGoneError(`A rung piece has no ${rung.name} file.`);
        return file;
      }),
    ]),
  );
  const made = outcomes.filter((o) => o.made).length;
  return { files, made, reused: outcomes.length - made };
}
