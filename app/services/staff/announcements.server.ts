import type { Announcement, User } from "drizzle/schema";
import { announcementTone } from "~/domain/announcements";
import type { AnnouncementInput } from "~/domain/staff-input";
import { db } from "~/lib/db.server";
import { badRequest, notFound } from "~/lib/http.server";
import { endAnnouncement, findAnnouncementById, insertAnnouncement, listAnnouncements } from "~/models/announcement.server";
import { recordStaffAction } from "~/services/staff/staff-actions.server";

// The site's banner (spec §2.2, §9), written and scheduled by administrators at /admin/announcements.

const ANNOUNCEMENTS_PAGE_SIZE = 25;

type Staff = Pick<User, "id" | "email">;

/** Where an announcement is in its life at `now`. */
function announcementState(row: Announcement, now: Date): "scheduled" | "live" | "ended" {
  if (row.endsAt && row.endsAt <= now) return "ended";
  if (row.startsAt && row.startsAt > now) return "scheduled";
  return "live";
}

function announcementView(row: Announcement, now: Date) {
  return {
    id: row.id,
    kind: row.type,
    tone: announcementTone(row.type),
    message: row.message,
    link: row.link,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    state: announcementState(row, now),
  };
}

export async function listAnnouncementsForStaff(page: number, now = new Date()) {
  const rows = await listAnnouncements(db(), { limit: ANNOUNCEMENTS_PAGE_SIZE + 1, offset: (page - 1) * ANNOUNCEMENTS_PAGE_SIZE });
  return {
    announcements: rows.slice(0, ANNOUNCEMENTS_PAGE_SIZE).map((row) => announcementView(row, now)),
    hasMore: rows.length > ANNOUNCEMENTS_PAGE_SIZE,
  };
}

/** Makes an announcement, live from its start (now when it has none) until its end (never when it has none). */
export async function createAnnouncementByStaff(admin: Staff, input: AnnouncementInput) {
  return db().transaction(async (tx) => {
    const made = await insertAnnouncement(tx, {
      type: input.kind,
      message: input.message,
      link: input.link,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
    });
    await recordStaffAction(
      admin,
      "announcement_created",
      { type: "announcement", id: made.id },
      {
        kind: made.type,
        message: made.message,
        link: made.link,
        startsAt: made.startsAt?.toISOString() ?? null,
        endsAt: made.endsAt?.toISOString() ?? null,
      },
      { tx },
    );
    return made;
  });
}

/** Ends an announcement now: it leaves the banner (and one still to come never shows). */
export async function endAnnouncementNow(admin: Staff, id: string, now = new Date()) {
  if (!(await findAnnouncementById(db(), id))) throw notFound("There is no announcement with this id.");
  return db().transaction(async (tx) => {
    const ended = await endAnnouncement(tx, id, now);
    if (!ended) throw badRequest("This announcement has already ended.");
    await recordStaffAction(admin, "announcement_ended", { type: "announcement", id }, { message: ended.message }, { tx });
    return ended;
  });
}
