import type { StaffAction, StaffActionKind } from "drizzle/schema";
import { STAFF_ACTION_KINDS, STAFF_ACTION_WORDS } from "~/domain/staff-actions";
import { db } from "~/lib/db.server";
import { findEventsByIds } from "~/models/event.server";
import { listStaffActions, listStaffActorEmails } from "~/models/staff-action.server";

// The audit log at /admin/audit: every staff action, newest first, by staff member and by kind.

const AUDIT_PAGE_SIZE = 50;

export interface AuditFilter {
  actorEmail?: string;
  action?: StaffActionKind;
}

/** Where the thing acted on can be looked at, when it has a page. */
function subjectLink(action: StaffAction, eventUuids: Map<string, string>) {
  switch (action.subjectType) {
    case "payment":
      return `/admin/payments/${action.subjectId}`;
    case "promo_code":
      return `/admin/promo-codes/${action.subjectId}`;
    case "announcement":
      return "/admin/announcements";
    case "user":
      return `/admin/people/${action.subjectId}`;
    case "event": {
      const uuid = eventUuids.get(action.subjectId);
      return uuid ? `/e/${uuid}` : null;
    }
    default:
      return null;
  }
}

const SUBJECT_WORDS: Record<StaffAction["subjectType"], string> = {
  payment: "Payment",
  promo_code: "Promo code",
  event: "Chorus",
  announcement: "Announcement",
  user: "User",
  mail_order: "Posted order",
};

/** The name people know the thing by (a code, an e-mail), else its id. */
function subjectName(action: StaffAction) {
  const { code, email } = action.details;
  return typeof code === "string" ? code : typeof email === "string" ? email : action.subjectId;
}

/** What the action said, as "key: value" pairs in the order it recorded them. */
const detailsLine = (details: StaffAction["details"]) =>
  Object.entries(details)
    .filter(([, value]) => value !== null && value !== "")
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(" · ");

export async function auditLog(filter: AuditFilter, page: number) {
  const [rows, actors] = await Promise.all([
    listStaffActions(db(), filter, { limit: AUDIT_PAGE_SIZE + 1, offset: (page - 1) * AUDIT_PAGE_SIZE }),
    listStaffActorEmails(db()),
  ]);
  const shown = rows.slice(0, AUDIT_PAGE_SIZE);
  const eventIds = shown.filter((row) => row.subjectType === "event").map((row) => row.subjectId);
  const events = eventIds.length ? await findEventsByIds(db(), [...new Set(eventIds)]) : [];
  const eventUuids = new Map(events.map((event) => [event.id, event.uuid]));
  return {
    entries: shown.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      by: row.actorEmail,
      kind: row.action,
      what: STAFF_ACTION_WORDS[row.action] ?? row.action,
      subject: `${SUBJECT_WORDS[row.subjectType] ?? row.subjectType} ${subjectName(row)}`,
      subjectLink: subjectLink(row, eventUuids),
      details: detailsLine(row.details),
    })),
    hasMore: rows.length > AUDIT_PAGE_SIZE,
    actors,
    kinds: STAFF_ACTION_KINDS.map((kind) => ({ value: kind, label: STAFF_ACTION_WORDS[kind] })),
  };
}
