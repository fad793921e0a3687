import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { PublishedMedia, VideoLadder } from "drizzle/schema";
import { enqueue } from "~/jobs/queue.server";
import { openWorkDir, type JobRef } from "~/jobs/work-dir.server";
import { parseByteRange } from "~/lib/byte-range";
import { type Db, db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import type { FileToSend } from "~/lib/file-response.server";
import { findPublishedMedia, setPublishedLadder } from "~/models/published-media.server";
import { findRenderJob } from "~/models/render-job.server";
import { findStoredRenderPieceKeys } from "~/models/render-piece.server";
import { ladderContentType, signPlaylist } from "~/render/hls-playlists";
import { MASTER_PLAYLIST } from "~/render/ladder";
import type { PieceStore } from "~/render/piece-store";
import type { RenderPlan } from "~/render/plan";
import { storage } from "~/services/media/storage.server";
import { storedPieces } from "~/services/render/render-pieces.server";

// A published version's HLS ladder (docs/decisions/036): made by a keyed job right after the
// version is published, from its render's rung pieces where it can be, stored beside it, served
// with the same signed links and rules as its MP4.

/** Where a version's ladder is stored. */
const ladderFolder = (version: Pick<PublishedMedia, "id" | "eventId">) => `events/${version.eventId}/published/${version.id}/hls`;

/** Queues the ladder of a version just published (through the publishing transaction, `tx`), unless VIDEO_LADDER is off. */
export async function queueVideoLadder(tx: Db, version: Pick<PublishedMedia, "id">) {
  if (!env().VIDEO_LADDER) return;
  await enqueue("video-ladder", { publishedMediaId: version.id }, { db: tx });
}

/**
 * The video-ladder job: makes and stores the ladder of a published version, then records it. A
 * version whose ladder is recorded is left alone; one cut short is made again from the start (the
 * row is written only once every file is stored, so a player never meets half a ladder). Made from
 * its render's rung pieces when they can be had (those not made ahead are made now); otherwise,
 * and should that fail, from the MP4.
 */
export async function makeVideoLadder(publishedMediaId: string, job?: JobRef) {
  const version = await findPublishedMedia(db(), publishedMediaId);
  if (!version || version.ladder) return;
  const started = performance.now();
  const work = await openWorkDir(`ladder-${version.id}`, job);
  const pieces = storedPieces();
  try {
    const { makeLadder } = await import("~/render/ladder.server");
    const source = await storage().localCopy(version.videoKey, { into: work.path });
    const out = path.join(work.path, "hls");
    await fs.mkdir(out);
    const rungPieces = await rungPiecesOfVersion(version, pieces, path.join(work.path, "rungs"));
    let made: Awaited<ReturnType<typeof makeLadder>> | null = null;
    if (rungPieces) {
      try {
        made = await makeLadder(source.path, out, { pieces: rungPieces.files });
      } catch (error) {
        console.warn(`video ladder of ${version.id}: its rung pieces would not join, made from the MP4 instead:`, error);
        await fs.rm(out, { recursive: true, force: true });
        await fs.mkdir(out);
      }
    }
    const fromPieces = made !== null;
    made ??= await makeLadder(source.path, out);
    await source.release();
    const folder = ladderFolder(version);
    for (const file of made.files) await storage().putFile(`${folder}/${file}`, path.join(out, file), ladderContentType(file));
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const ladder: VideoLadder = {
      folder,
      rungs: made.rungs,
      files: made.files,
      seconds,
      ...(fromPieces && rungPieces ? { rungPieces: { made: rungPieces.made, reused: rungPieces.reused } } : {}),
    };
    const recorded = await setPublishedLadder(db(), version.id, ladder);
    // The version was deleted while its ladder was being made: nothing may stay behind.
    if (!recorded) return await removeLadderFiles(folder, made.files);
    const how = ladder.rungPieces
      ? `from rung pieces (${ladder.rungPieces.made} made, ${ladder.rungPieces.reused} made ahead)`
      : "from the MP4";
    console.info(`video ladder of ${version.id}: ${made.rungs.map((r) => r.name).join(", ")} in ${seconds} s, ${how}`);
  } finally {
    await pieces.release();
    await work.remove();
  }
}

/**
 * The rung pieces of the render that made the version, each encoded rung's in join order, those
 * missing made now; null when there are none to be had: a version without its render job or plan
 * (published before rung pieces, or by hand), one of another size, a full-size piece swept, or
 * rung pieces missing for more than half of its frames (nothing was prepared ahead).
 */
async function rungPiecesOfVersion(version: PublishedMedia, store: PieceStore, workDir: string) {
  if (!version.renderJobId) return null;
  const plan = (await findRenderJob(db(), version.renderJobId))?.plan as RenderPlan | null | undefined;
  // A plan from before scenes were stored in parts has no parts to join.
  if (!plan?.segments?.length || !plan.profile || !Array.isArray(plan.transitions)) return null;
  if (!plan.segments.every((segment) => Array.isArray(segment.parts))) return null;
  if (version.width !== plan.profile.width || version.height !== plan.profile.height) return null;
  const { plannedRungPieces, rungPiecesFor, PieceGoneError } = await import("~/render/rung-pieces.server");
  const planned = plannedRungPieces(plan);
  // What is listed as stored, in one query (two lookups a piece, each with its files' checks, took
  // one after another for 86 pieces). rungPiecesFor then looks each rung piece up, which checks its
  // files and marks it used; a full-size piece is fetched only where its rung piece is to be made
  // (its files gone: PieceGoneError, and the ladder from the MP4).
  const listed = await findStoredRenderPieceKeys(
    db(),
    planned.flatMap((piece) => [piece.key, piece.rungKey]),
  );
  if (planned.some((piece) => !listed.has(piece.key))) return null;
  // Made here one by one, rung pieces cost more than the ladder from the MP4 (bench/README.md: 278 s
  // against 194 s for 201.5 s of 1080p, all of them missing): past half the video, the MP4 is quicker.
  const missingFrames = planned.reduce((sum, piece) => sum + (listed.has(piece.rungKey) ? 0 : piece.frames), 0);
  if (missingFrames * 2 > planned.reduce((sum, piece) => sum + piece.frames, 0)) return null;
  try {
    return await rungPiecesFor(plan, { store, workDir });
  } catch (error) {
    // A ladder from the MP4 is slower but as good: a version is never left without one for this.
    if (!(error instanceof PieceGoneError)) console.warn(`video ladder of ${version.id}: its rung pieces could not be made:`, error);
    return null;
  }
}

/** A file of a version's ladder, or null when the version has none or no file of that name. */
export async function ladderFileToSend(
  version: PublishedMedia,
  file: string,
  request: { range: string | null; withBody: boolean; query: string },
): Promise<{ file: FileToSend; immutable: boolean } | null> {
  const ladder = version.ladder;
  if (!ladder || !ladder.files.includes(file)) return null;
  const key = `${ladder.folder}/${file}`;
  const contentType = ladderContentType(file);
  if (file.endsWith(".m3u8")) {
    // Playlists are small: read whole, every address in them signed like the link they came by.
    const chunks: Buffer[] = [];
    for await (const chunk of await storage().read(key)) chunks.push(chunk as Buffer);
    const body = Buffer.from(signPlaylist(Buffer.concat(chunks).toString("utf8"), request.query));
    return {
      file: { size: body.length, contentType, attachmentName: null, range: null, body: request.withBody ? Readable.from([body]) : null },
      immutable: false,
    };
  }
  const info = await storage().stat(key);
  if (!info) return null;
  const range = parseByteRange(request.range, info.size);
  const sent: FileToSend = { size: info.size, contentType, attachmentName: null, range, body: null };
  if (range === "unsatisfiable" || !request.withBody) return { file: { ...sent, range: request.withBody ? range : null }, immutable: true };
  return { file: { ...sent, body: await storage().read(key, range ?? undefined) }, immutable: true };
}

async function removeLadderFiles(folder: string, files: readonly string[]) {
  // The master playlist first: a player that still holds a link finds nothing rather than half a ladder.
  for (const file of [MASTER_PLAYLIST, ...files.filter((f) => f !== MASTER_PLAYLIST)]) await storage().delete(`${folder}/${file}`);
}

/** Removes a deleted version's ladder from storage. */
export async function deleteVideoLadder(version: PublishedMedia) {
  if (version.ladder) await removeLadderFiles(version.ladder.folder, version.ladder.files);
}
