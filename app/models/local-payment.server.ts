import { localPaymentObjects, localPaymentRequests } from "drizzle/schema";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

// What the local payment service keeps: its objects as JSON by id, and its answers to requests
// sent with an idempotency key.

export type StoredObject = Record<string, unknown> & { id: string; object: string };

export async function insertLocalPaymentObject(db: Db, data: StoredObject) {
  await db.insert(localPaymentObjects).values({ id: data.id, object: data.object, data });
}

export async function saveLocalPaymentObject(db: Db, data: StoredObject) {
  await db
    .update(localPaymentObjects)
    .set({ data, updatedAt: sql`now()` })
    .where(eq(localPaymentObjects.id, data.id));
}

/** The object with this id and kind; with `lock`, its row stays locked until the transaction ends. */
export async function findLocalPaymentObject(db: Db, id: string, object: string, { lock = false } = {}) {
  const query = db
    .select({ data: localPaymentObjects.data })
    .from(localPaymentObjects)
    .where(and(eq(localPaymentObjects.id, id), eq(localPaymentObjects.object, object)))
    .limit(1);
  const [row] = await (lock ? query.for("update") : query);
  return (row?.data as StoredObject | undefined) ?? null;
}

/** Objects of one kind whose data contains `fields` (a JSON containment test), oldest first. */
export async function listLocalPaymentObjects(db: Db, object: string, fields: Record<string, unknown>) {
  const rows = await db
    .select({ data: localPaymentObjects.data })
    .from(localPaymentObjects)
    .where(and(eq(localPaymentObjects.object, object), sql`${localPaymentObjects.data} @> ${JSON.stringify(fields)}::jsonb`))
    .orderBy(asc(localPaymentObjects.createdAt));
  return rows.map((row) => row.data as StoredObject);
}

/** Holds the key until the transaction ends, so two requests with one key run one after the other. */
export async function lockIdempotencyKey(db: Db, key: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`local-payments:${key}`}, 0))`);
}

export async function findIdempotentReply(db: Db, key: string) {
  const [row] = await db.select().from(localPaymentRequests).where(eq(localPaymentRequests.idempotencyKey, key)).limit(1);
  return row ?? null;
}

export async function saveIdempotentReply(
  db: Db,
  reply: { idempotencyKey: string; method: string; path: string; status: number; body: Record<string, unknown> },
) {
  await db.insert(localPaymentRequests).values(reply).onConflictDoNothing();
}
