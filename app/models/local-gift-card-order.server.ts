import { localGiftCardOrders } from "drizzle/schema";
import { eq } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export interface NewLocalGiftCardOrder {
  id: string;
  externalId: string;
  productId: string;
  amount: number;
  currency: string;
  recipientName: string;
  recipientEmail: string;
}

/** Inserts the order, or returns the one already made with its external id (an order is made once per key). */
export async function insertLocalGiftCardOrderOnce(db: Db, order: NewLocalGiftCardOrder) {
  const [made] = await db
    .insert(localGiftCardOrders)
    .values(order)
    .onConflictDoNothing({ target: localGiftCardOrders.externalId })
    .returning();
  if (made) return made;
  const [found] = await db.select().from(localGiftCardOrders).where(eq(localGiftCardOrders.externalId, order.externalId)).limit(1);
  return found!;
}

export async function findLocalGiftCardOrder(db: Db, id: string) {
  const [found] = await db.select().from(localGiftCardOrders).where(eq(localGiftCardOrders.id, id)).limit(1);
  return found ?? null;
}
