import { messageDeliveries } from "drizzle/schema";
import { eq, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

/** Records the intent to send; answers whether this key was already sent. */
export async function claimDelivery(db: Db, key: string, channel: string, to: string) {
  const [row] = await db
    .insert(messageDeliveries)
    .values({ key, channel, to, attempts: 1 })
    .onConflictDoUpdate({ target: messageDeliveries.key, set: { attempts: sql`${messageDeliveries.attempts} + 1` } })
    .returning();
  return { alreadySent: row!.status === "sent" };
}

export async function markDelivered(db: Db, key: string) {
  await db.update(messageDeliveries).set({ status: "sent", sentAt: new Date(), lastError: null }).where(eq(messageDeliveries.key, key));
}

export async function markDeliveryFailed(db: Db, key: string, error: string) {
  await db
    .update(messageDeliveries)
    .set({ status: "failed", lastError: error.slice(0, 500) })
    .where(eq(messageDeliveries.key, key));
}
