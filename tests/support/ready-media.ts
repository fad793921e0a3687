import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Event, Media } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { findMediaById, insertMedia, updateMedia } from "~/models/media.server";
import { queueContributionDigest } from "~/services/events/digest.server";
import { processMedia } from "~/services/media/media-processing.server";
import { publishMediaUpdate } from "~/services/media/media-realtime.server";
import { storage } from "~/services/media/storage.server";
import { queuePiecePreparation } from "~/services/render/piece-preparation.server";
import { makeClip, makeQuartersImage } from "../media/support/media-fixtures";
import { testFileId } from "./test-file";

type WorkDir = { path(name: string): string };
type Options = { name?: string; caption?: string; source?: string };

/** What processing found and made for one original, kept as local files so any test can store them again. */
interface Prepared {
  original: string;
  mimeType: string;
  originalName: string;
  /** The ready row's fields that processing set (its keys are replaced by each copy's own). */
  found: Pick<
    Media,
    | "kind"
    | "mimeType"
    | "width"
    | "height"
    | "durationSeconds"
    | "rotation"
    | "hasAudio"
    | "trimStart"
    | "trimEnd"
    | "autoTrimStart"
    | "autoTrimEnd"
    | "advice"
    | "focusX"
    | "focusY"
  >;
  /** Stored files by their name in the item's folder (rendition.mp4, poster.jpg, thumb-640.jpg…). */
  files: Map<string, { local: string; contentType: string }>;
  posterName: string;
  thumbnailNames: Record<string, string>;
}

// Each kind of original (the photo, the 2 s clip, each clip of a test's own) is processed for real
// once per test file; every later item of that kind gets copies of what it made. Processing a clip
// at 1080p took ~3 s of CPU each time, and the render tests add a dozen items per file. The copies
// are in the file's own folder, gone with it: a worker's next file (which keeps this module) begins
// anew.
const prepared = new Map<string, Promise<Prepared>>();
let preparedFor = "";

function preparedOfThisFile() {
  if (preparedFor !== testFileId()) {
    prepared.clear();
    preparedFor = testFileId();
  }
  return prepared;
}

/**
 * A contribution with a real original in storage, processed to ready as an upload would be:
 * an 800×600 photo, or a 2 s clip (`source` to use a clip of the test's own). The first item of a
 * kind in a test file is processed by the app's own job; later ones get their own stored copies of
 * its original, rendition, poster and thumbnails, under their own keys, as if processed again.
 */
export async function addReadyMedia(event: Event, kind: "photo" | "video", workDir: WorkDir, options: Options = {}) {
  const fixture = options.source ? `${kind}:${await fileDigest(options.source)}` : kind;
  const prepared = preparedOfThisFile();
  const cached = prepared.get(fixture);
  if (cached) return copyPrepared(event, await cached, workDir, options);
  const first = processFirst(event, kind, workDir, options);
  const preparing = first.then(
    ({ record, done }) => done ?? Promise.reject(new Error(`${kind} was not processed: ${record.failureReason}`)),
  );
  prepared.set(fixture, preparing);
  // A failure is not remembered: the next item processes again and says why for itself.
  preparing.catch(() => prepared.delete(fixture));
  return (await first).record;
}

async function fileDigest(file: string) {
  return crypto
    .createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex");
}

/** Makes, stores and processes the original for real, then keeps local copies of everything stored. */
async function processFirst(event: Event, kind: "photo" | "video", workDir: WorkDir, options: Options) {
  const local = workDir.path(`${crypto.randomUUID()}.${kind === "photo" ? "jpg" : "mp4"}`);
  if (kind === "photo") await makeQuartersImage(local, 800, 600);
  else if (options.source) await fs.copyFile(options.source, local);
  else await makeClip(local, { seconds: 2 });
  const mimeType = kind === "photo" ? "image/jpeg" : "video/mp4";
  const originalName = kind === "photo" ? "photo.jpg" : "clip.mp4";
  // Kept for the copies: storing may move the file.
  const original = workDir.path(`prepared-${crypto.randomUUID()}-${originalName}`);
  await fs.copyFile(local, original);
  const record = await storeOriginal(event, local, { mimeType, originalName }, options);
  await processMedia(record.id);
  const ready = (await findMediaById(db(), record.id))!;
  if (ready.status !== "ready") return { record: ready, done: null };

  const files = new Map<string, { local: string; contentType: string }>();
  const keep = async (key: string) => {
    const name = path.posix.basename(key);
    if (files.has(name)) return;
    const stored = await storage().localCopy(key);
    const copy = workDir.path(`prepared-${crypto.randomUUID()}-${name}`);
    try {
      await fs.copyFile(stored.path, copy);
    } finally {
      await stored.release();
    }
    files.set(name, { local: copy, contentType: (await storage().stat(key))?.contentType ?? contentTypeOf(name) });
  };
  await keep(ready.renditionKey!);
  await keep(ready.posterKey!);
  const thumbnailNames: Record<string, string> = {};
  for (const [label, key] of Object.entries(ready.thumbnails)) {
    await keep(key);
    thumbnailNames[label] = path.posix.basename(key);
  }
  const done: Prepared = {
    original,
    mimeType,
    originalName,
    found: {
      kind: ready.kind,
      mimeType: ready.mimeType,
      width: ready.width,
      height: ready.height,
      durationSeconds: ready.durationSeconds,
      rotation: ready.rotation,
      hasAudio: ready.hasAudio,
      // What it learnt of the picture: a clip's default trim and advice, a subject (docs/decisions/053).
      trimStart: ready.trimStart,
      trimEnd: ready.trimEnd,
      autoTrimStart: ready.autoTrimStart,
      autoTrimEnd: ready.autoTrimEnd,
      advice: ready.advice,
      focusX: ready.focusX,
      focusY: ready.focusY,
    },
    files,
    posterName: path.posix.basename(ready.posterKey!),
    thumbnailNames,
  };
  return { record: ready, done };
}

const contentTypeOf = (name: string) =>
  name.endsWith(".mp4") ? "video/mp4" : name.endsWith(".webp") ? "image/webp" : name.endsWith(".png") ? "image/png" : "image/jpeg";

async function storeOriginal(event: Event, local: string, kind: { mimeType: string; originalName: string }, options: Options) {
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  const sizeBytes = (await fs.stat(local)).size;
  await storage().putFile(key, local, kind.mimeType);
  return insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: key,
    originalName: kind.originalName,
    mimeType: kind.mimeType,
    sizeBytes,
    contributorName: options.name ?? "Cy",
    caption: options.caption ?? "",
    uploadId: `test-${crypto.randomUUID()}`,
  });
}

/** A new item of a prepared kind: its own stored original and derived files, ready as processing leaves it. */
async function copyPrepared(event: Event, done: Prepared, workDir: WorkDir, options: Options) {
  const fresh = (file: string) => {
    const copy = workDir.path(`${crypto.randomUUID()}-${path.basename(file)}`);
    return fs.copyFile(file, copy).then(() => copy);
  };
  const record = await storeOriginal(event, await fresh(done.original), done, options);
  const base = `events/${record.eventId}/media/${record.mediaUuid}`;
  const keyOf = (name: string) => `${base}/${name}`;
  for (const [name, file] of done.files) await storage().putFile(keyOf(name), await fresh(file.local), file.contentType);
  const renditionName = [...done.files.keys()].find((name) => name.startsWith("rendition."))!;
  const ready = (await updateMedia(db(), record.id, {
    ...done.found,
    renditionKey: keyOf(renditionName),
    posterKey: keyOf(done.posterName),
    thumbnails: Object.fromEntries(Object.entries(done.thumbnailNames).map(([label, name]) => [label, keyOf(name)])),
    status: "ready",
    failureReason: null,
  }))!;
  // What processing does once an item is ready (media-processing.server.ts).
  await publishMediaUpdate(ready);
  await queuePiecePreparation(ready.eventId);
  await queueContributionDigest(event);
  return (await findMediaById(db(), record.id))!;
}
