import crypto from "node:crypto";
import { PassThrough, type Readable } from "node:stream";
import type { MailOrder } from "drizzle/schema";
import PDFDocument from "pdfkit";
import { mailProduct } from "~/domain/commerce/mail-orders";
import { PRODUCT_NAME } from "~/domain/product";
import { formatRecipientNames } from "~/domain/recipient-names";
import { db } from "~/lib/db.server";
import type { FileToSend } from "~/lib/file-response.server";
import { findEventById, listRecipients } from "~/models/event.server";
import { findMailOrder } from "~/models/mail-order.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { drawableWith, FONTS } from "~/services/events/guestbook-pdf.server";
import { storage } from "~/services/media/storage.server";

// What a fulfilment service fetches for an order (docs/decisions/029-dvds-and-keepsakes-by-post.md):
// the published video it was ordered from, and the label art Chorus makes for it (a DVD's disc label,
// a photo book's cover): the poster frame, the title and the recipient, as a print-ready PDF. The
// addresses carry the order's secret token; without it there is nothing here.

/** The order whose files these are, when the token is its own; null otherwise (answered as 404). */
export async function orderForFiles(id: string | undefined, token: string | undefined) {
  if (!id || !token || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  const order = await findMailOrder(db(), id);
  if (!order || order.status === "awaiting_payment" || order.status === "abandoned" || order.status === "refunded") return null;
  const expected = Buffer.from(order.fileToken);
  const given = Buffer.from(token);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? order : null;
}

/** The video the order was made from, whole. */
export async function videoOf(order: MailOrder): Promise<FileToSend | null> {
  const version = await findPublishedMedia(db(), order.publishedMediaId);
  if (!version) return null;
  const stored = await storage().stat(version.videoKey);
  if (!stored) return null;
  return {
    size: stored.size,
    contentType: "video/mp4",
    attachmentName: "chorus.mp4",
    range: null,
    body: await storage().read(version.videoKey),
  };
}

async function bytesOf(key: string | null) {
  if (!key) return null;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage().read(key)) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  } catch {
    return null;
  }
}

/** A 12 cm square (a disc label, or a book cover scaled to it): 340 points, with 3 mm of bleed. */
const SIDE = 340;
const INK = "#1f1a17";
const MUTED = "#6b625c";

export interface LabelArt {
  title: string;
  recipients: string;
  product: string;
  poster: Buffer | null;
}

/** The label art's content for an order. */
export async function labelArtOf(order: MailOrder): Promise<LabelArt> {
  const event = await findEventById(db(), order.eventId, { withDeleted: true });
  const recipients = formatRecipientNames(await listRecipients(db(), order.eventId));
  const version = await findPublishedMedia(db(), order.publishedMediaId);
  return {
    title: event?.title || `A ${PRODUCT_NAME}`,
    recipients,
    product: mailProduct(order.kind).name,
    poster: await bytesOf(version?.posterKey ?? null),
  };
}

let drawable: { heading: (t: string) => string; body: (t: string) => string } | null = null;

/** The label art as a one-page PDF, written as it is read. */
export function labelPdf(art: LabelArt): Readable {
  drawable ??= { heading: drawableWith(FONTS.heading), body: drawableWith(FONTS.body) };
  const doc = new PDFDocument({ size: [SIDE, SIDE], margin: 24, info: { Title: `${art.title} — ${art.product}` } });
  doc.registerFont("heading", FONTS.heading);
  doc.registerFont("body", FONTS.body);
  const out = new PassThrough();
  doc.pipe(out);
  const width = SIDE - 48;
  if (art.poster) {
    try {
      doc.image(art.poster, 24, 24, { fit: [width, 170], align: "center" });
    } catch {
      // A poster pdfkit cannot read (not a JPEG or PNG): the label is printed without it.
    }
  }
  doc.y = 206;
  doc.font("heading").fontSize(20).fillColor(INK).text(drawable.heading(art.title), 24, doc.y, { width, align: "center" });
  if (art.recipients) {
    doc.moveDown(0.4);
    doc
      .font("body")
      .fontSize(12)
      .fillColor(INK)
      .text(drawable.body(`For ${art.recipients}`), { width, align: "center" });
  }
  doc.moveDown(0.6);
  doc.font("body").fontSize(9).fillColor(MUTED).text(`${art.product} · made with ${PRODUCT_NAME}`, { width, align: "center" });
  doc.end();
  return out;
}
