import type { User } from "drizzle/schema";
import type { StaffBar } from "~/components/shell/staff-bar-types";
import { isAdmin } from "~/domain/membership";
import { isUuid } from "~/domain/uuid";
import { db } from "~/lib/db.server";
import { findEventByUuid } from "~/models/event.server";
import { listRenderJobsOfEvent } from "~/models/render-job.server";

// Spec §6: "Admin tools ... bars exist in the layout." Staff get a slim bar on every page: the way to
// the console, and on a Chorus's pages that Chorus in it (its row, its renders, its organiser); an
// admin acting as someone else sees it too, with who they act as and the way back.

/** A Chorus's pages: its event page and the pages under it (by a UUID). */
const EVENT_PATH = /^\/e\/([^/]+)(?:\/|$)/;

/** How many of a Chorus's latest renders the bar counts. */
const RENDERS_COUNTED = 20;

/**
 * The bar for `staff` (the signed-in member of staff, or the admin acting as `actingAs`) on the page
 * at `pathname`; null for anyone else.
 */
export async function staffBarFor(staff: Pick<User, "role"> | null, pathname: string, actingAs: string | null): Promise<StaffBar | null> {
  // Acting as someone else is always said, even by an account no longer staff.
  const isStaff = staff?.role === "admin" || staff?.role === "editor";
  if (!isStaff) return actingAs ? { admin: false, actingAs, chorus: null } : null;
  const found = EVENT_PATH.exec(pathname)?.[1];
  const uuid = isUuid(found) ? found.toLowerCase() : null;
  const event = uuid ? await findEventByUuid(db(), uuid, { withDeleted: true }) : null;
  if (!event) return { admin: isAdmin(staff), actingAs, chorus: null };
  const renders = await listRenderJobsOfEvent(db(), event.id, RENDERS_COUNTED);
  const running = renders.find((job) => job.status === "queued" || job.status === "running");
  return {
    admin: isAdmin(staff),
    actingAs,
    chorus: {
      title: event.title || "This Chorus",
      consoleHref: `/admin/choruses?q=${event.uuid}`,
      organiserHref: isAdmin(staff) ? `/admin/people/${event.creatorId}` : null,
      paid: event.paid,
      deleted: event.deletedAt !== null,
      renders: renders.length,
      latestRender: running?.status ?? renders[0]?.status ?? null,
    },
  };
}
