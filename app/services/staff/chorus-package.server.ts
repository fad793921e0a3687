import { Readable } from "node:stream";
import type { Event } from "drizzle/schema";
import { ZipFile } from "yazl";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { guestbookMessages } from "~/services/events/guestbook.server";
import { storage } from "~/services/media/storage.server";

// The Chorus package (spec §7.2 GET /admin/{product}package/{id}): every original exactly as it
// was uploaded, the published video and the words people wrote, as one zip. Streamed entry by
// entry (each file opened only when the zip reaches it), never built in memory or on disk.
// Stored, not deflated: photos and videos are compressed already.

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

/** A name for each original, in montage order, unique within the zip. */
export function packageEntryName(index: number, contributor: string, originalName: string, key: string) {
  const base = safePart(originalName.replace(/\.[^.]*$/, "")) || "file";
  const who = safePart(contributor);
  return `originals/${String(index + 1).padStart(3, "0")}${who ? `-${who}` : ""}-${base}${extensionOf(originalName, key)}`;
}

/** The package of `event`: the zip as a stream, and the name it is downloaded under. */
export async function chorusPackage(event: Event) {
  const [media, messages, published] = await Promise.all([
    listMediaOfEvent(db(), event.id),
    guestbookMessages(event),
    event.publishedMedia ? findPublishedMedia(db(), event.publishedMedia) : null,
  ]);
  const zip = new ZipFile();
  const addStored = (name: string, key: string, size: number | undefined, mtime: Date) =>
    zip.addReadStreamLazy(name, { compress: false, mtime, ...(size ? { size } : {}) }, (done) => {
      storage()
        .read(key)
        .then(
          (stream) => done(null, stream),
          (error) => done(error, undefined as never),
        );
    });

  if (published) addStored("chorus-video.mp4", published.videoKey, published.sizeBytes ?? undefined, published.createdAt);
  media.forEach((item, index) =>
    addStored(
      packageEntryName(index, item.contributorName, item.originalName, item.originalKey),
      item.originalKey,
      item.sizeBytes || undefined,
      item.createdAt,
    ),
  );

  const words = [
    ...media.filter((m) => m.caption.trim()).map((m) => `${m.contributorName || "Someone"}: ${m.caption.trim()}`),
    ...messages.map((m) => `${m.name}: ${m.message}`),
  ];
  if (words.length) zip.addBuffer(Buffer.from(`${words.join("\n\n")}\n`, "utf8"), "messages.txt", { compress: true });
  zip.end();
  return { fileName: `chorus-${event.eventId}.zip`, body: Readable.from(zip.outputStream as AsyncIterable<Buffer>) };
}
