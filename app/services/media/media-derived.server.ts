import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Media } from "drizzle/schema";
import sharp from "sharp";
import { db } from "~/lib/db.server";
import { photoSharpCanRead } from "~/media/heic.server";
import { photoRendition, thumbnails } from "~/media/images.server";
import { storageKeysInUse } from "~/models/media-file-references.server";
import { findMediaVersion, updateMedia } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";

/** What renders use of a photo, made from one source file: its images and where its subject is in the rendition. */
export type DerivedImages = Pick<Media, "renditionKey" | "posterKey" | "thumbnails" | "width" | "height" | "focusX" | "focusY">;

/** A subject found (shares of the rendition; docs/decisions/053), as the row keeps it. */
export const focusFields = (focus: { x: number; y: number } | null) => ({ focusX: focus?.x ?? null, focusY: focus?.y ?? null });

/** The file a photo's renders are made from: its active version (an approved upscale, an edit), or the original. */
export async function renditionSourceKey(record: Media) {
  if (!record.activeVersionId) return record.originalKey;
  return (await findMediaVersion(db(), record.id, record.activeVersionId))?.key ?? record.originalKey;
}

/**
 * Makes a photo's rendition, poster and thumbnails from `sourceKey`, in a fresh folder: a
 * duplicate may still share the previous files, so they are never overwritten. The width
 * and height become the source's, as displayed. Nothing is written to the database.
 */
export async function renderDerivedImages(record: Media, sourceKey: string): Promise<DerivedImages> {
  const source = await storage().localCopy(sourceKey);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-derived-"));
  try {
    const base = `events/${record.eventId}/media/${record.mediaUuid}/derived-${crypto.randomUUID().slice(0, 8)}`;
    const photo = await photoSharpCanRead(source.path, work);
    const rendition = await photoRendition(photo, path.join(work, "rendition.jpg"));
    const renditionKey = `${base}/rendition.jpg`;
    await storage().putFile(renditionKey, rendition.path, "image/jpeg");
    const thumbs: Record<string, string> = {};
    for (const image of await thumbnails(photo, work)) {
      const name = path.basename(image.path);
      thumbs[name] = `${base}/${name}`;
      await storage().putFile(thumbs[name], image.path, image.format === "webp" ? "image/webp" : "image/jpeg");
    }
    const { width, height } = (await sharp(photo).metadata()).autoOrient;
    const posterKey = thumbs["thumb-640.jpg"] ?? Object.values(thumbs)[0]!;
    return { renditionKey, posterKey, thumbnails: thumbs, width, height, ...focusFields(rendition.focus) };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await source.release();
  }
}

/** Rebuilds a ready photo's derived images from its active version or the original. */
export async function rebuildDerivedImages(record: Media): Promise<Media> {
  const derived = await renderDerivedImages(record, await renditionSourceKey(record));
  const updated = (await updateMedia(db(), record.id, derived))!;
  await deleteReplacedDerivedFiles(record, updated);
  return updated;
}

const derivedKeysOf = (record: DerivedImages) =>
  [record.renditionKey, record.posterKey, ...Object.values(record.thumbnails)].filter((key): key is string => !!key);

/**
 * Once `after` is saved: deletes the rendition, poster and thumbnails `before` had and `after`
 * no longer has, unless something still points at them (a duplicate sharing them, a version, a
 * render under way). The original and version files are never among them.
 */
export async function deleteReplacedDerivedFiles(before: Media, after: Media) {
  const kept = new Set([...derivedKeysOf(after), after.originalKey]);
  const replaced = [...new Set(derivedKeysOf(before))].filter((key) => !kept.has(key) && key !== before.originalKey);
  const inUse = await storageKeysInUse(db(), before.eventId, replaced);
  for (const key of replaced) {
    if (inUse.has(key)) continue;
    // The change is saved already: a file left behind costs space, not correctness.
    await storage()
      .delete(key)
      .catch((error: unknown) => console.warn(`Could not delete the replaced file ${key}:`, error));
  }
}
