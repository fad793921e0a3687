import { eventReports } from "drizzle/schema";
import type { Db } from "~/lib/db.server";

export async function insertEventReport(
  db: Db,
  report: { eventId: string; reporterId: string | null; reporterIp: string; reason: string },
) {
  const [row] = await db.insert(eventReports).values(report).returning();
  return row!;
}
