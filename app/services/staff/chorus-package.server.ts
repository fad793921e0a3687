import type { Event } from "drizzle/schema";
import { ZipFile } from "yazl";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { guestbookMessages } from "~/services/events/guestbook.server";
import { addOriginals, addStoredFile, zipStreamOf } from "~/services/media/originals-zip.server";

// The Chorus package (spec §7.2 GET /admin/{product}package/{id}): every original exactly as it
// was uploaded, the published video and the words people wrote, as one zip, streamed.

/** The package of `event`: the zip as a stream, and the name it is downloaded under. */
export async function chorusPackage(event: Event) {
  const [media, messages, published] = await Promise.all([
    listMediaOfEvent(db(), event.id),
    guestbookMessages(event),
    event.publishedMedia ? findPublishedMedia(db(), event.publishedMedia) : null,
  ]);
  const zip = new ZipFile();
  if (published) addStoredFile(zip, "chorus-video.mp4", published.videoKey, published.sizeBytes ?? undefined, published.createdAt);
  addOriginals(zip, media, "originals");

  const words = [
    ...media.filter((m) => m.caption.trim()).map((m) => `${m.contributorName || "Someone"}: ${m.caption.trim()}`),
    ...messages.map((m) => `${m.name}: ${m.message}`),
  ];
  if (words.length) zip.addBuffer(Buffer.from(`${words.join("\n\n")}\n`, "utf8"), "messages.txt", { compress: true });
  return { fileName: `chorus-${event.eventId}.zip`, body: zipStreamOf(zip) };
}
