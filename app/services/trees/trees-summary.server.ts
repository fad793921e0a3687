import { db } from "~/lib/db.server";
import { plantedTreesOfEvent, treeCountOfEvent } from "~/models/tree-contribution.server";

/** The trees of a Chorus as its pages show them: how many are paid for, and how many are planted. */
export async function treesOfEvent(eventId: string) {
  const [paid, planted] = await Promise.all([treeCountOfEvent(db(), eventId), plantedTreesOfEvent(db(), eventId)]);
  return { trees: paid.trees, planted: planted.trees };
}
