import { supportMessages } from "drizzle/schema";
import { desc } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function insertSupportMessage(
  db: Db,
  message: {
    kind: "chat" | "feedback";
    userId: string | null;
    email: string | null;
    role: string | null;
    message: string;
    pageUrl: string | null;
  },
) {
  // The widgets identify people by e-mail, id and role; the name is always "Anonymous" (spec §6).
  const [row] = await db
    .insert(supportMessages)
    .values({ ...message, name: "Anonymous" })
    .returning();
  return row!;
}

export async function listSupportMessages(db: Db, limit = 100) {
  return db.select().from(supportMessages).orderBy(desc(supportMessages.createdAt)).limit(limit);
}
