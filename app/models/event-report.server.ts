import type { Db } from "~/lib/db.server";
import { eventReports } from "../../drizzle/schema/index";

export async function insertEventReport(
  db: Db,
  report: { eventId: string; reporterId: string | null; reporterIp: string; reason: string },
) {
  const [row] = await db.insert(eventReports).values(report).returning();
  return row!;
}
