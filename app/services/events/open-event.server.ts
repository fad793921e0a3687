import type { User } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { notFound } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { findEventByUuid } from "~/models/event.server";
import type { EventKeys } from "~/services/events/event-access.server";
import { openFoundEvent } from "~/services/events/events.server";

/** The event at /e/{uuid} and who is asking: `user` and the keys in the page address. */
export async function openEventByUuid(user: User | null, rawUuid: string | undefined, keys: EventKeys) {
  const found = await findEventByUuid(db(), uuidParam(rawUuid, "Chorus"), { withDeleted: true });
  if (!found) throw notFound("There is no Chorus with this id.");
  return openFoundEvent(user, found, keys);
}
