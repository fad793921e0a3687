import { db } from "~/lib/db.server";
import { treeTotalsOfEvent } from "~/models/tree-contribution.server";

/** The trees of a Chorus as its pages show them: how many are paid for, and how many are planted. */
export async function treesOfEvent(eventId: string) {
  return treeTotalsOfEvent(db(), eventId);
}
