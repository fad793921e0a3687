import { localPostcardMailings, postcards, printMailEvents, type Postcard } from "drizzle/schema";
import { and, desc, eq, inArray, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import type { PostalAddress } from "~/domain/postal-address";
import type { Db } from "~/lib/db.server";

export type NewPostcard = Pick<Postcard, "eventId" | "creatorId" | "templateId" | "message" | "address" | "amount" | "currency">;

export async function insertPostcard(db: Db, values: NewPostcard) {
  const [made] = await db.insert(postcards).values(values).returning();
  return made!;
}

export async function findPostcard(db: Db, id: string, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(postcards).where(eq(postcards.id, id)).limit(1);
  const [found] = options.forUpdate ? await query.for("update") : await query;
  return found ?? null;
}

export async function listPostcardsOfEvent(db: Db, eventId: string) {
  return db.select().from(postcards).where(eq(postcards.eventId, eventId)).orderBy(desc(postcards.createdAt));
}

type PostcardFields = Partial<
  Pick<
    Postcard,
    | "templateId"
    | "message"
    | "address"
    | "status"
    | "amount"
    | "currency"
    | "paymentProvider"
    | "checkoutSessionId"
    | "paymentIntentId"
    | "printProvider"
    | "printId"
    | "mailingStatus"
    | "expectedDelivery"
    | "trackingUrl"
    | "failure"
    | "paidAt"
    | "sentAt"
    | "refundedAt"
  >
>;

export async function updatePostcard(db: Db, id: string, fields: PostcardFields) {
  const [saved] = await db
    .update(postcards)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(postcards.id, id))
    .returning();
  return saved!;
}

/** Postcards staff should look at: failed or refunded, and those paid but not yet taken by the print service. */
export async function listPostcardsNeedingAttention(db: Db, limit = 50) {
  return db
    .select()
    .from(postcards)
    .where(inArray(postcards.status, ["paid", "failed", "refunded"]))
    .orderBy(desc(postcards.updatedAt))
    .limit(limit);
}

/** The local print service's postcard for `idempotencyKey`, made once. */
export async function insertLocalPostcardMailingOnce(
  db: Db,
  mailing: { id: string; idempotencyKey: string; toAddress: PostalAddress; frontUrl: string; backUrl: string },
) {
  const [made] = await db
    .insert(localPostcardMailings)
    .values(mailing)
    .onConflictDoNothing({ target: localPostcardMailings.idempotencyKey })
    .returning();
  if (made) return made;
  const [found] = await db
    .select()
    .from(localPostcardMailings)
    .where(eq(localPostcardMailings.idempotencyKey, mailing.idempotencyKey))
    .limit(1);
  return found!;
}

export async function findLocalPostcardMailing(db: Db, id: string) {
  const [found] = await db.select().from(localPostcardMailings).where(eq(localPostcardMailings.id, id)).limit(1);
  return found ?? null;
}

/**
 * Its payment page expired unpaid (the payment webhook says so): a card at checkout with that
 * session goes back to draft, editable, and its next payment page is a new one. True when it did.
 */
export async function unlockAbandonedPostcard(db: Db, id: string, checkoutSessionId: string) {
  const saved = await db
    .update(postcards)
    .set({ status: "draft", checkoutAttempts: sql`${postcards.checkoutAttempts} + 1`, updatedAt: new Date() })
    .where(
      and(
        eq(postcards.id, id),
        eq(postcards.status, "checkout"),
        or(isNull(postcards.checkoutSessionId), eq(postcards.checkoutSessionId, checkoutSessionId)),
      ),
    )
    .returning({ id: postcards.id });
  return saved.length > 0;
}

/** The card the print service knows by `printId`. */
export async function findPostcardByPrintId(db: Db, printId: string) {
  const [found] = await db.select().from(postcards).where(eq(postcards.printId, printId)).limit(1);
  return found ?? null;
}

/** Cards with the print service, not yet delivered or returned, and not heard of since `before`. */
export async function listStalePostcardsInThePost(db: Db, before: Date, limit = 200) {
  return db
    .select({ id: postcards.id })
    .from(postcards)
    .where(
      and(
        eq(postcards.status, "sent"),
        or(isNull(postcards.mailingStatus), notInArray(postcards.mailingStatus, ["delivered", "returned"])),
        lt(postcards.updatedAt, before),
      ),
    )
    .orderBy(postcards.updatedAt)
    .limit(limit);
}

/** Takes in one print service webhook event by its id: false when it was taken in before. */
export async function recordPrintMailEvent(db: Db, event: { id: string; type: string; objectId: string | null }) {
  const made = await db.insert(printMailEvents).values(event).onConflictDoNothing().returning({ id: printMailEvents.id });
  return made.length > 0;
}
