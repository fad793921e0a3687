import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { PublishedMedia } from "drizzle/schema";
import { enqueue } from "~/jobs/queue.server";
import { openWorkDir, type JobRef } from "~/jobs/work-dir.server";
import { parseByteRange } from "~/lib/byte-range";
import { type Db, db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import type { FileToSend } from "~/lib/file-response.server";
import { findPublishedMedia, setPublishedLadder } from "~/models/published-media.server";
import { MASTER_PLAYLIST, ladderContentType, signPlaylist } from "~/render/ladder";
import { storage } from "~/services/media/storage.server";

// A published version's HLS ladder (docs/decisions/036): made by a keyed job right after the
// version is published, stored beside it, served with the same signed links and rules as its MP4.

/** Where a version's ladder is stored. */
const ladderFolder = (version: Pick<PublishedMedia, "id" | "eventId">) => `events/${version.eventId}/published/${version.id}/hls`;

/** Queues the ladder of a version just published (through the publishing transaction, `tx`), unless VIDEO_LADDER is off. */
export async function queueVideoLadder(tx: Db, version: Pick<PublishedMedia, "id">) {
  if (!env().VIDEO_LADDER) return;
  await enqueue("video-ladder", { publishedMediaId: version.id }, { singletonKey: `video-ladder:${version.id}`, db: tx });
}

/**
 * The video-ladder job: makes and stores the ladder of a published version, then records it. A
 * version whose ladder is recorded is left alone; one cut short is made again from the start (the
 * row is written only once every file is stored, so a player never meets half a ladder).
 */
export async function makeVideoLadder(publishedMediaId: string, job?: JobRef) {
  const version = await findPublishedMedia(db(), publishedMediaId);
  if (!version || version.ladder) return;
  const started = performance.now();
  const work = await openWorkDir(`ladder-${version.id}`, job);
  try {
    const { makeLadder } = await import("~/render/ladder.server");
    const source = await storage().localCopy(version.videoKey, { into: work.path });
    const out = path.join(work.path, "hls");
    await fs.mkdir(out);
    const made = await makeLadder(source.path, out);
    await source.release();
    const folder = ladderFolder(version);
    for (const file of made.files) await storage().putFile(`${folder}/${file}`, path.join(out, file), ladderContentType(file));
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const recorded = await setPublishedLadder(db(), version.id, { folder, rungs: made.rungs, files: made.files, seconds });
    // The version was deleted while its ladder was being made: nothing may stay behind.
    if (!recorded) return await removeLadderFiles(folder, made.files);
    console.info(`video ladder of ${version.id}: ${made.rungs.map((r) => r.name).join(", ")} in ${seconds} s`);
  } finally {
    await work.remove();
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
