import type { User } from "drizzle/schema";
import { TREE_PRICE, TREE_QUANTITY } from "~/domain/commerce/catalogue";
import { formatLongDay } from "~/domain/event-dates";
import { formatRecipientNames } from "~/domain/recipient-names";
import { db } from "~/lib/db.server";
import { notFound } from "~/lib/http.server";
import { listRecipients } from "~/models/event.server";
import { plantedTreesOfEvent, treeCountOfEvent } from "~/models/tree-contribution.server";
import type { EventKeys } from "~/services/events/event-access.server";
import { openEventByUuid } from "~/services/events/open-event.server";

/**
 * The trees page of a Chorus: the count and, once trees are in the ground, the certificate. Everyone who
 * can see the Chorus may look; the recipient and view-only links see no planting form.
 */
export async function treesPageOf(user: User | null, eventUuid: string | undefined, keys: EventKeys = {}) {
  const { event, viewer } = await openEventByUuid(user, eventUuid, keys);
  if (event.deletedAt) throw notFound("There is no Chorus with this id.");
  const [paid, planted, recipients] = await Promise.all([
    treeCountOfEvent(db(), event.id),
    plantedTreesOfEvent(db(), event.id),
    listRecipients(db(), event.id),
  ]);
  return {
    uuid: event.uuid,
    recipientNames: formatRecipientNames(recipients),
    canPlant: viewer.role !== "recipient" && viewer.role !== "view-only",
    price: TREE_PRICE,
    quantity: TREE_QUANTITY,
    trees: paid.trees,
    people: paid.people,
    certificate:
      planted.trees > 0 ? { trees: planted.trees, date: formatLongDay(planted.lastPlantedAt ?? new Date(), event.timeZone) } : null,
  };
}
