import type { Media } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { roomOfEvent, roomOfUser } from "~/realtime/events";
import { broadcaster } from "~/realtime/server.server";
import { mediaView, publicMediaStatus } from "~/services/media/media-views.server";

/**
 * Pushes a media change: its status to the event's public room (contributors
 * watching their uploads finish) and the full item to the organiser.
 */
export async function publishMediaUpdate(record: Media) {
  const io = broadcaster();
  if (!io) return;
  const event = await findEventById(db(), record.eventId, { withDeleted: true });
  if (!event) return;
  io.of("/public").to(roomOfEvent(event.uuid)).emit("media:status", publicMediaStatus(record));
  io.of("/users")
    .to(roomOfUser(event.creatorId))
    .emit("media:updated", { eventUuid: event.uuid, media: mediaView(record) });
}
