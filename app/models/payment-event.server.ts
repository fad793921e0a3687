import { paymentEvents } from "drizzle/schema";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

/**
 * Takes an event into the ledger; false when it was already there (a repeated delivery). Inside the
 * transaction that applies it, a concurrent delivery of the same event waits here for that
 * transaction, then finds the row, or takes the event in itself when the first one rolled back.
 */
export async function recordPaymentEvent(db: Db, event: { id: string; type: string; objectId: string | null }) {
  const inserted = await db.insert(paymentEvents).values(event).onConflictDoNothing().returning({ id: paymentEvents.id });
  return inserted.length > 0;
}

export async function markPaymentEventProcessed(db: Db, id: string) {
  await db
    .update(paymentEvents)
    .set({ processedAt: sql`now()` })
    .where(eq(paymentEvents.id, id));
}

/** Whether an event of `type` about object `objectId` has been applied. */
export async function paymentEventApplied(db: Db, objectId: string, type: string) {
  const [row] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.objectId, objectId), eq(paymentEvents.type, type), isNotNull(paymentEvents.processedAt)))
    .limit(1);
  return !!row;
}
