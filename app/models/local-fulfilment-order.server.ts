import { localFulfilmentOrders } from "drizzle/schema";
import { and, eq } from "drizzle-orm";
import type { MailOrderKind } from "~/domain/commerce/mail-orders";
import type { PostalAddress } from "~/domain/postal-address";
import type { Db } from "~/lib/db.server";

/** Inserts the order, or returns the one the service already made with this external id. */
export async function insertLocalFulfilmentOrderOnce(
  db: Db,
  order: { id: string; service: MailOrderKind; externalId: string; quantity: number; address: PostalAddress },
) {
  const [made] = await db
    .insert(localFulfilmentOrders)
    .values(order)
    .onConflictDoNothing({ target: [localFulfilmentOrders.service, localFulfilmentOrders.externalId] })
    .returning();
  if (made) return made;
  const [found] = await db
    .select()
    .from(localFulfilmentOrders)
    .where(and(eq(localFulfilmentOrders.service, order.service), eq(localFulfilmentOrders.externalId, order.externalId)))
    .limit(1);
  return found!;
}

export async function findLocalFulfilmentOrder(db: Db, service: MailOrderKind, id: string) {
  const [found] = await db
    .select()
    .from(localFulfilmentOrders)
    .where(and(eq(localFulfilmentOrders.service, service), eq(localFulfilmentOrders.id, id)))
    .limit(1);
  return found ?? null;
}
