import type { Media } from "../../drizzle/schema/index";
import { signedMediaUrl } from "~/lib/media-url.server";

/** A media record as the organiser (or the contributor who sent it) sees it, with signed file links. */
export function mediaView(record: Media) {
  const ready = record.status === "ready";
  const thumb = ready ? (record.thumbnails["thumb-320.webp"] ? "thumb-320.webp" : record.thumbnails["thumb-320.jpg"] ? "thumb-320.jpg" : null) : null;
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
    trimStart: record.trimStart,
    trimEnd: record.trimEnd,
    hidden: record.hidden,
    archived: !!record.archivedAt,
    approved: record.approved,
    originalName: record.originalName,
    sizeBytes: record.sizeBytes,
    width: record.width,
    height: record.height,
    durationSeconds: record.durationSeconds,
    createdAt: record.createdAt.toISOString(),
    thumbnailUrl: thumb ? signedMediaUrl(record.mediaUuid, thumb) : null,
    posterUrl: ready && record.posterKey ? signedMediaUrl(record.mediaUuid, "poster") : null,
    renditionUrl: ready && record.renditionKey ? signedMediaUrl(record.mediaUuid, "rendition") : null,
    originalUrl: signedMediaUrl(record.mediaUuid, "original"),
  };
}

export type MediaView = ReturnType<typeof mediaView>;

/** What anyone following the event's public room may know: an item's progress, nothing private. */
export const publicMediaStatus = (record: Media) => ({ mediaUuid: record.mediaUuid, status: record.status, kind: record.kind });
