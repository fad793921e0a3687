import { db } from "~/lib/db.server";
import { searchEventsForStaff } from "~/models/event.server";
import { listRenderJobsOfEvents } from "~/models/render-job.server";

// Choruses as staff find them at /admin/choruses: by title, short event id or uuid, with their
// organiser, their state and their latest renders.

export const CHORUSES_PAGE_SIZE = 25;

const seconds = (from: Date | null, to: Date | null) =>
  from && to ? Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000)) : null;

export async function searchChoruses(options: { search: string | null; page: number }) {
  const rows = await searchEventsForStaff(db(), {
    search: options.search,
    limit: CHORUSES_PAGE_SIZE + 1,
    offset: (options.page - 1) * CHORUSES_PAGE_SIZE,
  });
  const shown = rows.slice(0, CHORUSES_PAGE_SIZE);
  const renders = await listRenderJobsOfEvents(
    db(),
    shown.map((row) => row.event.id),
  );
  return {
    choruses: shown.map(({ event, organiserEmail }) => ({
      id: event.id,
      uuid: event.uuid,
      code: event.eventId,
      title: event.title || "Untitled Chorus",
      createdAt: event.createdAt.toISOString(),
      organiser: { id: event.creatorId, email: organiserEmail },
      paid: event.paid,
      published: !!event.publishedMedia,
      takenDown: !!event.takenDownAt,
      deleted: !!event.deletedAt,
      renders: renders
        .filter((job) => job.eventId === event.id)
        .map((job) => ({
          id: job.id,
          status: job.status,
          resolution: job.resolution,
          attempts: job.attempts,
          createdAt: job.createdAt.toISOString(),
          renderSeconds: seconds(job.startedAt, job.finishedAt),
          error: job.error,
        })),
    })),
    hasMore: rows.length > CHORUSES_PAGE_SIZE,
  };
}
