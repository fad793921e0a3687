import type { Media } from "drizzle/schema";
import { mediaLaneFor } from "~/domain/media-lane";
import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";

/**
 * Queues the processing of an item in its lane (docs/decisions/015): photos and small clips in
 * the fast lane, so they never wait behind a long clip. One waiting job per item. With `through`,
 * in that transaction: the item's row and its job are written together or not at all.
 */
export async function queueMediaProcessing(record: Pick<Media, "id" | "mimeType" | "sizeBytes">, through?: Db) {
  const settings = env();
  const lane = mediaLaneFor(record, { smallMaxBytes: settings.MEDIA_SMALL_MAX_BYTES, maxPhotoBytes: settings.MAX_PHOTO_BYTES });
  await enqueue(lane, { mediaId: record.id }, through ? { db: through } : {});
  return lane;
}
