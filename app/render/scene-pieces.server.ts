// A scene's pieces (docs/decisions/038): its own piece (head, tail and sound, keyed without words
// or theme) and its parts (captioned, plain, a title card's), each stored by its own key. What of
// them is missing is made in one ffmpeg run: all of the scene's source decoded once when its own
// piece is missing, else only the frames of the missing parts.

import type { PieceStore, PieceTiming, StoredPiece } from "./piece-store";
import type { PieceContext } from "./pieces";
import { renderSegmentPieces } from "./pieces";
import type { ScenePart, Segment } from "./plan";

/** What of a scene is stored: its own piece and each of its parts, in order (null where missing). */
export interface SceneFound<T> {
  scene: T | null;
  parts: (T | null)[];
}

/** The scene's pieces as the store has them; of its own piece only `sceneFiles` are fetched. */
export async function lookUpScene(store: PieceStore, segment: Segment, sceneFiles: readonly string[]): Promise<SceneFound<StoredPiece>> {
  const [scene, ...parts] = await Promise.all([
    store.get(segment.key, sceneFiles),
    ...segment.parts.map((part) => store.get(part.key, ["body"])),
  ]);
  return { scene: scene ?? null, parts };
}

/** Whether the scene's pieces are stored, without fetching any file. */
export async function sceneStored(store: PieceStore, segment: Segment): Promise<SceneFound<true>> {
  const [scene, ...parts] = await Promise.all([store.has(segment.key), ...segment.parts.map((part) => store.has(part.key))]);
  return { scene: scene ? true : null, parts: parts.map((p) => (p ? true : null)) };
}

export const missingCount = (found: SceneFound<unknown>) => (found.scene ? 0 : 1) + found.parts.filter((p) => !p).length;

/** Frames a run making what is missing decodes and writes: the whole scene when its own piece is missing. */
export function sceneWork(segment: Segment, found: SceneFound<unknown>) {
  if (!found.scene) return segment.frames;
  const missing = segment.parts.filter((_, i) => !found.parts[i]);
  if (!missing.length) return 0;
  return Math.max(...missing.map((p) => p.end)) - Math.min(...missing.map((p) => p.start));
}

/** How a made piece is kept: stored under its key, with how long it took. */
export type KeepPiece = (
  key: string,
  kind: string,
  files: Record<string, string>,
  frames: number,
  timing: PieceTiming,
) => Promise<StoredPiece>;

/**
 * Makes what of the scene `found` lacks in one ffmpeg run and keeps each piece. The run's time
 * is shared among the pieces by their frames, so each piece's seconds per frame is the run's.
 */
export async function makeMissing(
  segment: Segment,
  found: SceneFound<unknown>,
  ctx: PieceContext,
  keep: KeepPiece,
): Promise<{ scene: StoredPiece | null; parts: (StoredPiece | null)[] }> {
  const parts: ScenePart[] = segment.parts.filter((_, i) => !found.parts[i]);
  const startedAt = Date.now();
  const files = await renderSegmentPieces(segment, ctx, { scene: !found.scene, parts });
  const seconds = (Date.now() - startedAt) / 1000;
  const timing = (frames: number): PieceTiming => ({
    resolution: ctx.profile.resolution,
    seconds: (seconds * frames) / files.frames,
    frames,
  });
  let scene: StoredPiece | null = null;
  if (!found.scene) {
    const own: Record<string, string> = { audio: files.audio! };
    if (files.head) own.head = files.head;
    if (files.tail) own.tail = files.tail;
    const frames = segment.headFrames + segment.tailFrames;
    scene = await keep(segment.key, segment.kind, own, frames, timing(frames));
  }
  const made: (StoredPiece | null)[] = [];
  for (const part of segment.parts) {
    const file = files.parts[part.key];
    made.push(file ? await keep(part.key, part.kind, { body: file }, part.end - part.start, timing(part.end - part.start)) : null);
  }
  return { scene, parts: made };
}
