import { Readable } from "node:stream";
import type { Event, Media } from "drizzle/schema";
import { ZipFile } from "yazl";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";

// Zips of what people sent, exactly as they sent it: the organiser's "every original" download and
// the staff's Chorus package are both made here. Streamed entry by entry (each file opened only when
// the zip reaches it), never built in memory or on disk. Stored, not deflated: photos and videos are
// compressed already.

const safePart = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[^\w.\- ]+/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .slice(0, 60);

function extensionOf(name: string, key: string) {
  const match = /\.[a-z0-9]{1,5}$/i.exec(name) ?? /\.[a-z0-9]{1,5}$/i.exec(key);
  return match ? match[0].toLowerCase() : "";
}

/**
 * A name for an original, unique within the zip (its place in the montage comes first) and safe on
 * every system: letters, digits, dots and dashes only, the contributor's name in it where known.
 */
export function originalEntryName(index: number, contributor: string, originalName: string, key: string) {
  const base = safePart(originalName.replace(/\.[^.]*$/, "")).replace(/^\.+/, "") || "file";
  const who = safePart(contributor).replace(/^\.+/, "");
  return `${String(index + 1).padStart(3, "0")}${who ? `-${who}` : ""}-${base}${extensionOf(originalName, key)}`;
}

/** Adds a stored file to `zip` as it is, opened from storage only when the zip reaches it. */
export function addStoredFile(zip: ZipFile, name: string, key: string, size: number | undefined, mtime: Date) {
  zip.addReadStreamLazy(name, { compress: false, mtime, ...(size ? { size } : {}) }, (done) => {
    storage()
      .read(key)
      .then(
        (stream) => done(null, stream),
        (error) => done(error, undefined as never),
      );
  });
}

type Original = Pick<Media, "contributorName" | "originalName" | "originalKey" | "sizeBytes" | "createdAt">;

/** Adds every original of `media`, in their order, under `folder` (the zip's top level when empty). */
export function addOriginals(zip: ZipFile, media: readonly Original[], folder = "") {
  media.forEach((item, index) =>
    addStoredFile(
      zip,
      `${folder ? `${folder}/` : ""}${originalEntryName(index, item.contributorName, item.originalName, item.originalKey)}`,
      item.originalKey,
      item.sizeBytes || undefined,
      item.createdAt,
    ),
  );
}

/** The finished zip's bytes as a stream; call once everything is added (it ends the zip). */
export function zipStreamOf(zip: ZipFile): Readable {
  zip.end();
  return Readable.from(zip.outputStream as AsyncIterable<Buffer>);
}

/** Every original of `event`'s contributions, as a zip to download. */
export async function originalsZipOf(event: Pick<Event, "id" | "eventId">) {
  const zip = new ZipFile();
  addOriginals(zip, await listMediaOfEvent(db(), event.id, { purpose: "contribution" }));
  return { fileName: `chorus-${event.eventId}-originals.zip`, body: zipStreamOf(zip) };
}
