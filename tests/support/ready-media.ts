import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { Event } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { findMediaById, insertMedia } from "~/models/media.server";
import { processMedia } from "~/services/media/media-processing.server";
import { storage } from "~/services/media/storage.server";
import { makeClip, makeQuartersImage } from "../media/support/media-fixtures";

/**
 * A contribution with a real original in storage, processed to ready as an upload would be:
 * an 800×600 photo, or a 2 s clip (`source` to use a clip of the test's own).
 */
export async function addReadyMedia(
  event: Event,
  kind: "photo" | "video",
  workDir: { path(name: string): string },
  options: { name?: string; caption?: string; source?: string } = {},
) {
  const local = workDir.path(`${crypto.randomUUID()}.${kind === "photo" ? "jpg" : "mp4"}`);
  if (kind === "photo") await makeQuartersImage(local, 800, 600);
  else if (options.source) await fs.copyFile(options.source, local);
  else await makeClip(local, { seconds: 2 });
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  const sizeBytes = (await fs.stat(local)).size;
  await storage().putFile(key, local, kind === "photo" ? "image/jpeg" : "video/mp4");
  const record = await insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: key,
    originalName: kind === "photo" ? "photo.jpg" : "clip.mp4",
    mimeType: kind === "photo" ? "image/jpeg" : "video/mp4",
    sizeBytes,
    contributorName: options.name ?? "Cy",
    caption: options.caption ?? "",
    uploadId: `test-${crypto.randomUUID()}`,
  });
  await processMedia(record.id);
  return (await findMediaById(db(), record.id))!;
}
