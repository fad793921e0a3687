import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { findGiftOfEvent, giftPot } from "~/models/gift.server";
import { treeCountOfEvent } from "~/models/tree-contribution.server";
import { roomOfEvent, type PotUpdate } from "~/realtime/events";
import { broadcaster } from "~/realtime/server.server";

/** What everyone on a Chorus page sees of its gift-card pot and trees (docs/decisions/028-trees-and-the-live-pot.md). */
export async function potOfEvent(eventId: string, eventUuid: string): Promise<PotUpdate> {
  const gift = await findGiftOfEvent(db(), eventId);
  const pot = gift ? await giftPot(db(), gift.id) : null;
  const trees = await treeCountOfEvent(db(), eventId);
  return {
    eventUuid,
    gift: gift && pot ? { id: gift.id, potTotal: pot.total, contributions: pot.count, currency: gift.currency } : null,
    trees: trees.trees,
  };
}

/**
 * Pushes the pot to the event's public room. Called once the change is committed (a webhook's
 * transaction, a refund), so a page never shows money the database then rolls back.
 */
export async function publishPot(eventId: string) {
  const io = broadcaster();
  if (!io) return;
  const event = await findEventById(db(), eventId, { withDeleted: true });
  if (!event) return;
  io.of("/public")
    .to(roomOfEvent(event.uuid))
    .emit("pot:updated", await potOfEvent(event.id, event.uuid));
}
