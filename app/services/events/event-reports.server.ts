import type { Event, User } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { insertEventReport } from "~/models/event-report.server";
import { broadcaster } from "~/realtime/server.server";
import { countAttempt } from "~/services/accounts/rate-limit.server";
import { notifyStaff } from "~/services/events/notifications.server";

/** "Report This Page": stored, and staff are told at once (notification and the /staff channel). */
export async function reportEvent(event: Event, reporter: { user: User | null; ip: string }, reason: string) {
  await countAttempt(`report:ip:${reporter.ip}`, 10);
  await insertEventReport(db(), { eventId: event.id, reporterId: reporter.user?.id ?? null, reporterIp: reporter.ip, reason });
  await notifyStaff({
    eventId: event.id,
    kind: "event.reported",
    title: `Event ${event.eventId} was reported`,
    body: reason || "No reason given.",
    url: `/e/${event.uuid}`,
  });
  broadcaster()?.of("/staff").emit("event:reported", { eventId: event.id, eventUuid: event.uuid, reason });
}
