import { media, mediaVersions, renderJobs } from "drizzle/schema";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

/**
 * Which of `keys` something of the event still points at: a media item's files (a duplicate
 * shares its source's), a photo version of any status, or the plan of a render that has not
 * finished (a retry renders the same plan). Files are shared only within an event.
 */
export async function storageKeysInUse(db: Db, eventId: string, keys: string[]) {
  const wanted = new Set(keys);
  const used = new Set<string>();
  const note = (key: string | null) => {
    if (key && wanted.has(key)) used.add(key);
  };
  if (wanted.size === 0) return used;
  const items = await db
    .select({ originalKey: media.originalKey, renditionKey: media.renditionKey, posterKey: media.posterKey, thumbnails: media.thumbnails })
    .from(media)
    .where(eq(media.eventId, eventId));
  for (const item of items) [item.originalKey, item.renditionKey, item.posterKey, ...Object.values(item.thumbnails)].forEach(note);
  const versions = await db
    .select({ key: mediaVersions.key })
    .from(mediaVersions)
    .innerJoin(media, eq(media.id, mediaVersions.mediaId))
    .where(eq(media.eventId, eventId));
  for (const version of versions) note(version.key);
  const renders = await db
    .select({ plan: renderJobs.plan })
    .from(renderJobs)
    .where(and(eq(renderJobs.eventId, eventId), inArray(renderJobs.status, ["queued", "running"])));
  const plans = renders.map((render) => JSON.stringify(render.plan)).join("\n");
  for (const key of wanted) if (plans.includes(JSON.stringify(key))) used.add(key);
  return used;
}
