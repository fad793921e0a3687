import type { Event, Media } from "drizzle/schema";
import { formatDeadlineDay } from "~/domain/event-dates";
import { formatRecipientNames } from "~/domain/recipient-names";
import { db } from "~/lib/db.server";
import { printablePhoto } from "~/media/images.server";
import { listRecipients } from "~/models/event.server";
import { listGuestbookEntries } from "~/models/guestbook.server";
import { listMediaOfEvent } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import { headlineOf, occasionOf } from "./event-views.server";
import { guestbookPdf, type BookMessage } from "./guestbook-pdf.server";

// The guestbook keepsake (the `guestbook-book` add-on): every message a guestbook Chorus collected,
// as a printable PDF. A message is one signed in words only, or a photo or clip sent with words
// (then the photo, or the clip's poster, is printed with them). Hidden ones are left out, as on the page.

async function bytesOf(key: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage().read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The picture printed with a contribution: the photo itself (else its thumbnail), or a clip's poster; null when none can be read. */
async function pictureOf(item: Media): Promise<Buffer | null> {
  const candidates = item.kind === "photo" ? [item.originalKey, item.thumbnails["640"]] : [item.posterKey];
  for (const key of candidates) {
    if (!key) continue;
    try {
      return await printablePhoto(await bytesOf(key));
    } catch {
      // Not a picture this machine can decode (or gone from storage): try the next one.
    }
  }
  return null;
}

/** The keepsake of a guestbook Chorus as a PDF stream, and the name it is downloaded under. */
export async function guestbookBookOf(event: Event) {
  const [recipients, entries, media] = await Promise.all([
    listRecipients(db(), event.id),
    listGuestbookEntries(db(), event.id),
    listMediaOfEvent(db(), event.id, { purpose: "contribution" }),
  ]);
  const written = entries.filter((e) => !e.hidden).map((e) => ({ at: e.createdAt, name: e.name, message: e.message, item: null }));
  const sent = media
    .filter((m) => !m.hidden && m.caption.trim())
    .map((m) => ({ at: m.createdAt, name: m.contributorName, message: m.caption.trim(), item: m }));
  const messages: BookMessage[] = [];
  // One at a time: a photo is read, shrunk and let go before the next.
  for (const m of [...written, ...sent].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    messages.push({
      name: m.name,
      message: m.message,
      date: formatDeadlineDay(m.at, event.timeZone),
      photo: m.item ? await pictureOf(m.item) : null,
    });
  }
  const body = guestbookPdf({
    title: headlineOf(event, recipients),
    recipients: formatRecipientNames(recipients),
    occasion: occasionOf(event).label,
    messages,
  });
  return { fileName: `chorus-${event.eventId}-guestbook.pdf`, body };
}
