import { copyFile, stat } from "node:fs/promises";
import path from "node:path";
import type { Track } from "drizzle/schema";
import { BUILT_IN_TRACKS, findBuiltInTrack } from "~/domain/built-in-tracks";
import { enqueue } from "~/jobs/queue.server";
import { openWorkDir, type JobRef } from "~/jobs/work-dir.server";
import { db } from "~/lib/db.server";
import { TRACK_RENDITION, analyseTrack, normaliseTrack, validateTrackFile, type TrackAnalysis } from "~/media/track-audio.server";
import { findTrackById, updateTrack, upsertBuiltInTrack, type TrackChanges } from "~/models/track.server";
import { roomOfUser } from "~/realtime/events";
import { broadcaster } from "~/realtime/server.server";
import { trackLimits } from "~/services/arrange/track-library.server";
import { storage } from "~/services/media/storage.server";

export const TRACK_PREPARE_FAILED = "We could not prepare this track. Please try uploading it again.";

/** Failures that are about the file itself: retrying cannot help, the owner is told why. */
const isFileProblem = (error: unknown) =>
  error instanceof Error && (error.name === "UploadRejectedError" || error.name === "UnreadableMediaError");

/** public/ of the app: the server runs from the repository's root (server.ts). */
const builtInFile = (file: string) => path.resolve(process.cwd(), "public", file);

export const trackRenditionKey = (track: Pick<Track, "id" | "slug">) =>
  track.slug ? `tracks/built-in/${track.slug}/rendition.m4a` : `tracks/${track.id}/rendition.m4a`;

/**
 * The track-process job: checks the file is music within the limits, makes the rendition the
 * soundtrack reads, and measures duration, loudness and the waveform. Idempotent: a retry redoes
 * the same file under the same key; a file that is not usable ends `failed` with the reason.
 */
export async function processTrack(trackId: string, { finalAttempt = false, job }: { finalAttempt?: boolean; job?: JobRef } = {}) {
  const track = await findTrackById(db(), trackId);
  if (!track || track.status === "ready" || track.archivedAt) return;
  await setTrack(track, { status: "processing", failureReason: null });
  // Named by track and job, like media's (docs/decisions/015): a dead attempt's files are found.
  const workDir = await openWorkDir(`track-${track.id}-${job?.id ?? "direct"}`, job);
  const work = workDir.path;
  try {
    const made = track.slug ? await prepareBuiltIn(track, work) : await prepareUpload(track, work);
    await setTrack(track, {
      status: "ready",
      failureReason: null,
      renditionKey: trackRenditionKey(track),
      durationSeconds: round(made.durationSeconds, 3),
      loudnessLufs: round(made.loudnessLufs, 2),
      waveform: made.waveform,
    });
  } catch (error) {
    if (!isFileProblem(error)) {
      // Our trouble, not the file's: retried, and after the last try the track says so instead of
      // staying "processing" for ever.
      if (finalAttempt) await setTrack(track, { status: "failed", failureReason: TRACK_PREPARE_FAILED });
      throw error;
    }
    await setTrack(track, { status: "failed", failureReason: (error as Error).message });
  } finally {
    await workDir.remove();
  }
}

/** The track-dead job: a track whose last attempt died with its worker says it failed. */
export async function abandonTrack(trackId: string) {
  const track = await findTrackById(db(), trackId);
  if (track?.status !== "processing") return;
  await setTrack(track, { status: "failed", failureReason: TRACK_PREPARE_FAILED });
}

/** An organiser's upload: the stored original, levelled into a rendition. */
async function prepareUpload(track: Track, work: string): Promise<TrackAnalysis> {
  if (!track.originalKey) throw new Error(`track ${track.id} has no original`);
  const original = await storage().localCopy(track.originalKey);
  try {
    const limits = trackLimits();
    const checked = await validateTrackFile(original.path, limits);
    const rendition = path.join(work, "rendition.m4a");
    const made = await normaliseTrack(original.path, rendition, checked.audio.index, work, { maxSeconds: limits.maxSeconds });
    await storage().putFile(trackRenditionKey(track), rendition, TRACK_RENDITION.contentType);
    return made;
  } finally {
    await original.release();
  }
}

/**
 * A built-in is made to the rendition's format and level when it is composed (scripts/make-music.ts):
 * its shipped file is stored as its rendition as it is, and only measured.
 */
async function prepareBuiltIn(track: Track, work: string): Promise<TrackAnalysis> {
  const builtIn = findBuiltInTrack(track.slug);
  if (!builtIn) throw new Error(`no built-in track "${track.slug}"`);
  const file = builtInFile(builtIn.file);
  const checked = await validateTrackFile(file, { maxBytes: Number.MAX_SAFE_INTEGER, maxSeconds: Number.MAX_SAFE_INTEGER });
  const made = await analyseTrack(file, checked.audio.index, work);
  await storeBuiltInRendition(track, file, work);
  return made;
}

async function storeBuiltInRendition(track: Pick<Track, "id" | "slug">, file: string, work: string) {
  // putFile may move its file: it gets a copy, never the shipped one.
  const copy = path.join(work, "built-in.m4a");
  await copyFile(file, copy);
  await storage().putFile(trackRenditionKey(track), copy, TRACK_RENDITION.contentType);
}

/**
 * Called at server start: every built-in track is in the database, and is measured once (by a
 * track-process job, so start-up stays quick) — again only when its shipped file changes. Storage
 * that lost a ready built-in's rendition (a new data folder) gets the shipped file back as it is.
 */
export async function ensureBuiltInTracks() {
  for (const builtIn of BUILT_IN_TRACKS) {
    const file = builtInFile(builtIn.file);
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) {
      console.warn(`Built-in track ${builtIn.slug}: ${file} is missing.`);
      continue;
    }
    const track = await upsertBuiltInTrack(db(), {
      slug: builtIn.slug,
      title: builtIn.title,
      artist: builtIn.artist,
      licence: builtIn.licence,
      originalName: path.basename(builtIn.file),
      isPremium: builtIn.premium,
    });
    const current = track.status === "ready" && track.sizeBytes === size && track.durationSeconds !== null;
    if (!current) {
      if (track.status !== "processing") await updateTrack(db(), track.id, { status: "uploaded", sizeBytes: size, failureReason: null });
      await enqueue("track-process", { trackId: track.id });
    } else if (!(await storage().stat(trackRenditionKey(track)))) {
      const workDir = await openWorkDir(`track-${track.id}-restore`);
      await storeBuiltInRendition(track, file, workDir.path).finally(workDir.remove);
    }
  }
}

/** Saves changes and tells the owner's open pages (built-ins belong to nobody: no one is told). */
async function setTrack(track: Track, changes: TrackChanges) {
  const updated = await updateTrack(db(), track.id, changes);
  const io = broadcaster();
  if (!updated || !io || !track.ownerId) return;
  // The fields as the track's view names them; where files are stored stays on the server.
  const { renditionKey: _rendition, originalKey: _original, ...fields } = changes;
  io.of("/users")
    .to(roomOfUser(track.ownerId))
    .emit("track:updated", { id: track.id, ...fields });
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
