import { isTreePlantingError } from "~/integrations/trees/trees-port";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { findTreeContribution, markTreePlantingFailed, markTreesPlanted } from "~/models/tree-contribution.server";
import { publishPot } from "~/services/events/pot-realtime.server";
import { treePlantingProvider } from "./provider.server";

// Planting (docs/decisions/028-trees-and-the-live-pot.md): one job per paid contribution, keyed and
// leased by it. The vendor's idempotency key is the contribution's id, so a worker that dies after
// the vendor planted and before the row says so makes the retry find the same planting, not a second.

/** The planting job: orders the trees once; a refusal, or the last failed attempt, fails it and queues its refund. */
export async function plantTrees(contributionId: string, { finalAttempt }: { finalAttempt: boolean }) {
  const contribution = await findTreeContribution(db(), contributionId);
  if (!contribution || contribution.status !== "paid") return;
  try {
    const planting = await treePlantingProvider().plant({
      project: contribution.project,
      count: contribution.quantity,
      externalId: contribution.id,
    });
    await markTreesPlanted(db(), contribution.id, planting.id);
  } catch (error) {
    if (!isTreePlantingError(error)) throw error;
    // Tried again with the queue's growing delays while the vendor may still take it.
    if (error.retryable && !finalAttempt) throw error;
    await db().transaction(async (tx) => {
      await markTreePlantingFailed(tx, contribution.id, `${error.message} The trees were not planted.`);
      await enqueue("tree-refund", { treeContributionId: contribution.id }, { db: tx });
    });
    await publishPot(contribution.eventId);
  }
}
