import { outboxMessages } from "drizzle/schema";
import { count, desc, eq } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function insertOutboxMessage(
  db: Db,
  message: { channel: "email" | "sms"; to: string; subject?: string; text: string; html?: string },
) {
  const [row] = await db.insert(outboxMessages).values(message).returning();
  return row!;
}

export async function listOutboxMessages(db: Db, limit = 50) {
  return db.select().from(outboxMessages).orderBy(desc(outboxMessages.createdAt)).limit(limit);
}

export async function findOutboxMessage(db: Db, id: string) {
  const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, id)).limit(1);
  return row ?? null;
}

export async function countOutboxMessages(db: Db) {
  const [row] = await db.select({ messages: count() }).from(outboxMessages);
  return row?.messages ?? 0;
}
