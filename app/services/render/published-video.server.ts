import type { Event, PublishedMedia, RenderJob } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { ApiError } from "~/lib/http.server";
import { signedFileUrl, signedFolderFileUrl } from "~/lib/media-url.server";
import { versionHasMailOrders } from "~/models/mail-order.server";
import { deleteEarlierVersion, findPublishedMedia, listPublishedVersions } from "~/models/published-media.server";
import { MASTER_PLAYLIST } from "~/render/ladder";
import { deleteVideoLadder } from "~/services/render/video-ladder.server";

/** The links a page hands out for a video file: signed, expiring, range-served. */
function videoLinks(base: string, hasPoster: boolean) {
  return {
    videoUrl: signedFileUrl(`${base}/video`),
    posterUrl: hasPoster ? signedFileUrl(`${base}/poster`) : null,
    downloadUrl: `${signedFileUrl(`${base}/video`)}&download`,
  };
}

/**
 * A published version's links, with its HLS master playlist once the ladder is made (null before:
 * players play the MP4). Every file of the ladder opens with the signature of this one link.
 */
export const publishedVideoLinks = (version: PublishedMedia) => ({
  ...videoLinks(`/videos/${version.id}`, !!version.posterKey),
  streamUrl: version.ladder ? signedFolderFileUrl(`/videos/${version.id}/hls`, MASTER_PLAYLIST) : null,
});
export const renderVideoLinks = (job: RenderJob) => videoLinks(`/renders/${job.id}`, !!job.posterKey);

/** A published version as the API answers it. */
export function publishedVersionView(version: PublishedMedia, event: Pick<Event, "publishedMedia">) {
  return {
    id: version.id,
    eventId: version.eventId,
    renderJobId: version.renderJobId,
    version: version.version,
    current: version.id === event.publishedMedia,
    durationSeconds: version.durationSeconds,
    width: version.width,
    height: version.height,
    sizeBytes: version.sizeBytes,
    publishedAt: version.createdAt.toISOString(),
    ...publishedVideoLinks(version),
  };
}

/** The event's current video, if one is published. */
export async function currentVideoOf(event: Event) {
  if (!event.publishedMedia) return null;
  const version = await findPublishedMedia(db(), event.publishedMedia);
  if (!version || version.eventId !== event.id) return null;
  return {
    id: version.id,
    version: version.version,
    durationSeconds: version.durationSeconds,
    width: version.width,
    height: version.height,
    publishedAt: version.createdAt.toISOString(),
    ...publishedVideoLinks(version),
  };
}

/** Every version of the event's video, newest first, with which one is current. */
export async function videoVersionsOf(event: Event) {
  const versions = await listPublishedVersions(db(), event.id);
  return versions.map((v) => ({
    id: v.id,
    version: v.version,
    current: v.id === event.publishedMedia,
    durationSeconds: v.durationSeconds,
    resolution: v.height ? `${v.height}p` : null,
    publishedAt: v.createdAt.toISOString(),
    ...publishedVideoLinks(v),
  }));
}

/**
 * Deletes an earlier version of the event's video, with its HLS ladder. The one on the recipient's
 * link, and one a DVD or photo book is made from, stay. The MP4 is its render's and stays with it.
 */
export async function deleteVersion(version: PublishedMedia) {
  if (await versionHasMailOrders(db(), version.id)) {
    throw new ApiError(409, "CONFLICT", "A DVD or photo book is made from this version, so it stays.");
  }
  const deleted = await deleteEarlierVersion(db(), version.id);
  if (!deleted) throw new ApiError(409, "CONFLICT", "The recipient's link plays this version. Make another one current first.");
  await deleteVideoLadder(deleted);
  return deleted;
}
