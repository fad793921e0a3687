import type { User } from "drizzle/schema";
import { PRODUCT_NAME } from "~/domain/product";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { badRequest, notFound } from "~/lib/http.server";
import { listOpenReports, listTakenDownEvents, resolveOpenReports, setEventTakenDown } from "~/models/event-report.server";
import { findEventById } from "~/models/event.server";
import { findStaffActionById } from "~/models/staff-action.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";
import { recordStaffAction } from "~/services/staff/staff-actions.server";

// Reports of Chorus pages and what staff (administrators and editors) do about them: dismiss the
// reports, take the Chorus down (its organiser is told why by e-mail), or restore it.

/** Open reports read at most, grouped by Chorus on the queue page. */
const OPEN_REPORTS_READ = 500;
const TAKEN_DOWN_SHOWN = 50;

type Staff = Pick<User, "id" | "email">;

/** The queue: each reported Chorus once, the most recently reported first, and those taken down. */
export async function reportQueue() {
  const [open, takenDown] = await Promise.all([listOpenReports(db(), OPEN_REPORTS_READ), listTakenDownEvents(db(), TAKEN_DOWN_SHOWN)]);
  const byEvent = new Map<string, ReportedChorus>();
  for (const report of open) {
    const entry = byEvent.get(report.event.id) ?? {
      eventId: report.event.id,
      uuid: report.event.uuid,
      code: report.event.eventId,
      title: report.event.title,
      takenDown: !!report.event.takenDownAt,
      reports: [],
    };
    entry.reports.push({
      id: report.id,
      reason: report.reason,
      reporter: report.reporterEmail ?? `Someone not logged in${report.reporterIp ? ` (${report.reporterIp})` : ""}`,
      at: report.createdAt.toISOString(),
    });
    byEvent.set(report.event.id, entry);
  }
  return {
    reported: [...byEvent.values()],
    takenDown: takenDown.map((event) => ({
      eventId: event.id,
      uuid: event.uuid,
      code: event.eventId,
      title: event.title,
      at: event.takenDownAt!.toISOString(),
      reason: event.takenDownReason ?? "",
    })),
  };
}

interface ReportedChorus {
  eventId: string;
  uuid: string;
  code: string;
  title: string;
  takenDown: boolean;
  reports: { id: string; reason: string; reporter: string; at: string }[];
}

async function moderatedEvent(eventId: string) {
  const event = await findEventById(db(), eventId, { withDeleted: true });
  if (!event) throw notFound("There is no Chorus with this id.");
  return event;
}

/** The reports were not a reason to act: they leave the queue, and the Chorus stays as it is. */
export async function dismissReports(staff: Staff, eventId: string) {
  const event = await moderatedEvent(eventId);
  return db().transaction(async (tx) => {
    const dismissed = await resolveOpenReports(tx, event.id, "dismissed", staff.id);
    if (dismissed === 0) throw badRequest("This Chorus has no open reports.");
    await recordStaffAction(
      staff,
      "reports_dismissed",
      { type: "event", id: event.id },
      { reports: dismissed, code: event.eventId },
      { tx },
    );
    return { event, dismissed };
  });
}

/**
 * Takes a Chorus down: its pages say it is unavailable and it takes no more uploads, its open
 * reports leave the queue, and its organiser is e-mailed the reason.
 */
export async function takeDownEvent(staff: Staff, input: { eventId: string; reason: string }) {
  const event = await moderatedEvent(input.eventId);
  return db().transaction(async (tx) => {
    const updated = await setEventTakenDown(tx, event.id, input.reason);
    if (!updated) throw badRequest("This Chorus is already taken down.");
    const reports = await resolveOpenReports(tx, event.id, "taken_down", staff.id);
    const action = await recordStaffAction(
      staff,
      "event_taken_down",
      { type: "event", id: event.id },
      { reason: input.reason, reports, code: event.eventId },
      { tx },
    );
    await enqueue("event-taken-down-mail", { staffActionId: action!.id }, { db: tx });
    return updated;
  });
}

/** Puts a Chorus taken down back as it was. */
export async function restoreEvent(staff: Staff, eventId: string) {
  const event = await moderatedEvent(eventId);
  return db().transaction(async (tx) => {
    const updated = await setEventTakenDown(tx, event.id, null);
    if (!updated) throw badRequest("This Chorus is not taken down.");
    await recordStaffAction(staff, "event_restored", { type: "event", id: event.id }, { code: event.eventId }, { tx });
    return updated;
  });
}

/** The take-down job: the organiser is told once why, however often the job runs. */
export async function sendTakeDownMail(staffActionId: string) {
  const action = await findStaffActionById(db(), staffActionId);
  if (!action || action.action !== "event_taken_down") return;
  const event = await findEventById(db(), action.subjectId, { withDeleted: true });
  const organiser = event ? await findUserById(db(), event.creatorId) : null;
  if (!event || !organiser) return;
  const reason = typeof action.details.reason === "string" ? action.details.reason : "";
  const mail = renderEmail({
    subject: `Your ${PRODUCT_NAME} ${event.eventId} was taken down`,
    heading: `We took your ${PRODUCT_NAME} down`,
    paragraphs: [
      `Your ${PRODUCT_NAME} ${event.eventId}${event.title ? ` ("${event.title}")` : ""} was reported, and our team has taken it down. ` +
        "Its pages now say it is unavailable, and it takes no more contributions.",
      `Why: ${reason}`,
      "If you think this is a mistake, reply to this e-mail or write to us through the chat on our site, and we will look at it again.",
    ],
  });
  await deliverOnce(`taken-down:${action.id}`, "email", organiser.email, () => sendMail({ to: organiser.email, ...mail }));
}
