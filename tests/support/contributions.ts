import type { Event } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import { sha256File } from "./media-fixtures";

/** What an event holds: each stored original's name, who sent it and a digest of its bytes, oldest first. */
export async function originalsOf(event: Pick<Event, "id">) {
  const media = await listMediaOfEvent(db(), event.id);
  return Promise.all(
    media.map(async (m) => ({
      name: m.originalName,
      by: m.contributorName,
      sha: await sha256File((await storage().localCopy(m.originalKey)).path),
    })),
  );
}
