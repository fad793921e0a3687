import type { Media } from "drizzle/schema";
import { knownAdvice } from "~/domain/clip-advice";
import type { ClipTrim } from "~/domain/default-trim";
import { signedMediaUrl } from "~/lib/media-url.server";

const seconds = (value: number) => Math.round(value * 1000) / 1000;

/** A clip's trim and the one processing found for it, in seconds as people type them (docs/decisions/053). */
export function clipTrimOf(record: Media): ClipTrim {
  return {
    durationSeconds: record.durationSeconds,
    trimStart: seconds(record.trimStart),
    trimEnd: record.trimEnd === null ? null : seconds(record.trimEnd),
    defaultTrim:
      record.autoTrimStart === null
        ? null
        : { trimStart: seconds(record.autoTrimStart), trimEnd: record.autoTrimEnd === null ? null : seconds(record.autoTrimEnd) },
    trimChosen: record.trimChosen,
  };
}

/** A media record as the organiser (or the contributor who sent it) sees it, with signed file links. */
export function mediaView(record: Media) {
  const ready = record.status === "ready";
  // Photos' thumbnails are thumb-*, clips' are poster-*: the 320-wide one, WebP first.
  const names = Object.keys(record.thumbnails);
  const thumb = ready ? (names.find((n) => n.endsWith("-320.webp")) ?? names.find((n) => n.endsWith("-320.jpg")) ?? null) : null;
  // Changes whenever the files behind a link may have (upscale, edit, revert), so no stale image is shown from cache.
  const version = record.updatedAt.getTime().toString(36);
  const link = (variant: string) => `${signedMediaUrl(record.mediaUuid, variant)}&v=${version}`;
  return {
    id: record.id,
    mediaUuid: record.mediaUuid,
    purpose: record.purpose,
    kind: record.kind,
    status: record.status,
    failureReason: record.failureReason,
    contributorName: record.contributorName,
    caption: record.caption,
    position: record.position,
    // Stored as 4-byte floats: 1.9 reads back as 1.8999999762, which no one typed.
    trimStart: seconds(record.trimStart),
    trimEnd: record.trimEnd === null ? null : seconds(record.trimEnd),
    /** The trim processing found (its dead air left out; docs/decisions/053): null before a clip is analysed. */
    defaultTrim: clipTrimOf(record).defaultTrim,
    /** The organiser set the trim: the default no longer replaces it. */
    trimChosen: record.trimChosen,
    /** What may disappoint about a clip ("dark", "quiet", "short", "shaky"). */
    advice: knownAdvice(record.advice),
    hidden: record.hidden,
    archived: !!record.archivedAt,
    approved: record.approved,
    originalName: record.originalName,
    sizeBytes: record.sizeBytes,
    width: record.width,
    height: record.height,
    durationSeconds: record.durationSeconds,
    createdAt: record.createdAt.toISOString(),
    thumbnailUrl: thumb ? link(thumb) : null,
    posterUrl: ready && record.posterKey ? link("poster") : null,
    renditionUrl: ready && record.renditionKey ? link("rendition") : null,
    originalUrl: signedMediaUrl(record.mediaUuid, "original"),
  };
}

/** What anyone following the event's public room may know: an item's progress, nothing private. */
export const publicMediaStatus = (record: Media) => ({ mediaUuid: record.mediaUuid, status: record.status, kind: record.kind });
