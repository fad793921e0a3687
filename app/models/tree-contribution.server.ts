import { events, treeContributions, type TreeContribution } from "drizzle/schema";
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { reusedQuery } from "~/lib/reused-query.server";

export type NewTreeContribution = Pick<
  TreeContribution,
  "eventId" | "name" | "email" | "quantity" | "unitAmount" | "amount" | "currency" | "project"
>;

export async function insertTreeContribution(db: Db, input: NewTreeContribution) {
  const [made] = await db.insert(treeContributions).values(input).returning();
  return made!;
}

export async function setTreeContributionSession(db: Db, id: string, provider: string, checkoutSessionId: string) {
  await db.update(treeContributions).set({ provider, checkoutSessionId }).where(eq(treeContributions.id, id));
}

export async function findTreeContribution(db: Db, id: string) {
  const [found] = await db.select().from(treeContributions).where(eq(treeContributions.id, id)).limit(1);
  return found ?? null;
}

export async function lockTreeContribution(db: Db, id: string) {
  const [found] = await db.select().from(treeContributions).where(eq(treeContributions.id, id)).for("update").limit(1);
  return found ?? null;
}

/** Recorded by the payment webhook: the money is in, planting follows. */
export async function markTreeContributionPaid(
  db: Db,
  id: string,
  paid: { provider: string; paymentIntentId: string; checkoutSessionId: string | null },
) {
  await db
    .update(treeContributions)
    .set({ ...paid, status: "paid", paidAt: new Date() })
    .where(eq(treeContributions.id, id));
}

export async function markTreesPlanted(db: Db, id: string, plantingId: string) {
  await db
    .update(treeContributions)
    .set({ status: "planted", plantingId, plantedAt: new Date(), failure: null })
    .where(and(eq(treeContributions.id, id), eq(treeContributions.status, "paid")));
}

export async function markTreePlantingFailed(db: Db, id: string, failure: string) {
  await db
    .update(treeContributions)
    .set({ status: "failed", failure })
    .where(and(eq(treeContributions.id, id), eq(treeContributions.status, "paid")));
}

export async function markTreeContributionRefunded(db: Db, id: string, amountRefunded: number) {
  await db
    .update(treeContributions)
    .set({ status: "refunded", amountRefunded, refundedAt: new Date() })
    .where(eq(treeContributions.id, id));
}

/** Trees paid for in the event's name (being planted or planted), and by how many people. */
export async function treeCountOfEvent(db: Db, eventId: string) {
  const [row] = await db
    .select({
      trees: sql<number>`coalesce(sum(${treeContributions.quantity}), 0)::int`,
      people: sql<number>`count(*)::int`,
    })
    .from(treeContributions)
    .where(and(eq(treeContributions.eventId, eventId), inArray(treeContributions.status, ["paid", "planted"])));
  return { trees: row?.trees ?? 0, people: row?.people ?? 0 };
}

// Read on every visit of the event page: its SQL is built once (reused-query.server.ts).
const treeTotals = reusedQuery((db) =>
  db
    .select({
      trees: sql<number>`coalesce(sum(${treeContributions.quantity}), 0)::int`,
      planted: sql<number>`coalesce(sum(${treeContributions.quantity}) filter (where ${treeContributions.status} = 'planted'), 0)::int`,
    })
    .from(treeContributions)
    .where(and(eq(treeContributions.eventId, sql.placeholder("eventId")), inArray(treeContributions.status, ["paid", "planted"])))
    .prepare("tree_totals_of_event"),
);

/** The event's trees paid for (being planted or planted) and those already planted, in one read. */
export async function treeTotalsOfEvent(db: Db, eventId: string) {
  const [row] = await treeTotals(db).execute({ eventId });
  return { trees: row?.trees ?? 0, planted: row?.planted ?? 0 };
}

/** The event's trees already in the ground, for the certificate. */
export async function plantedTreesOfEvent(db: Db, eventId: string) {
  const [row] = await db
    .select({
      trees: sql<number>`coalesce(sum(${treeContributions.quantity}), 0)::int`,
      lastPlantedAt: sql<Date | null>`max(${treeContributions.plantedAt})`,
    })
    .from(treeContributions)
    .where(and(eq(treeContributions.eventId, eventId), eq(treeContributions.status, "planted")));
  return { trees: row?.trees ?? 0, lastPlantedAt: row?.lastPlantedAt ? new Date(row.lastPlantedAt) : null };
}

/** Staff: the latest tree contributions past their checkout, newest first, with their Chorus's address. */
export async function listRecentTreeContributions(db: Db, limit = 50) {
  return db
    .select({ contribution: treeContributions, eventUuid: events.uuid })
    .from(treeContributions)
    .innerJoin(events, eq(events.id, treeContributions.eventId))
    .where(inArray(treeContributions.status, ["paid", "planted", "failed", "refunded"]))
    .orderBy(desc(treeContributions.createdAt))
    .limit(limit);
}

/**
 * Its payment page expired unpaid (the payment webhook says so): a pending contribution of that
 * session becomes abandoned; true when it did.
 */
export async function markTreeContributionAbandoned(db: Db, id: string, checkoutSessionId: string) {
  const saved = await db
    .update(treeContributions)
    .set({ status: "abandoned" })
    .where(
      and(
        eq(treeContributions.id, id),
        eq(treeContributions.status, "pending"),
        or(isNull(treeContributions.checkoutSessionId), eq(treeContributions.checkoutSessionId, checkoutSessionId)),
      ),
    )
    .returning({ id: treeContributions.id });
  return saved.length > 0;
}
