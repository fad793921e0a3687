import type { Media } from "drizzle/schema";
import type { Db } from "~/lib/db.server";
import { listMontageOrder, lockMontageOrder, setMediaPosition } from "~/models/media.server";

/**
 * Rearranges an event's montage inside the caller's transaction: `arrange` gets the ids of
 * the live contributions in order and returns the new order; positions become 0..n-1 with
 * no gaps. Returns the rows whose position changed, so each can be announced.
 */
export async function rearrangeMontage(tx: Db, eventId: string, arrange: (ids: string[]) => string[] = (ids) => ids): Promise<Media[]> {
  await lockMontageOrder(tx, eventId);
  const current = await listMontageOrder(tx, eventId);
  const positionOf = new Map(current.map((row) => [row.id, row.position]));
  const changed: Media[] = [];
  for (const [index, id] of arrange(current.map((row) => row.id)).entries()) {
    if (positionOf.get(id) !== index) changed.push(await setMediaPosition(tx, id, index));
  }
  return changed;
}
