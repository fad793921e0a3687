import type { Event } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import { mediaView } from "~/services/media/media-views.server";

/** The organiser's contributions grid: the montage in order, and what was archived (restorable). */
export async function organiserMediaOf(event: Event) {
  const records = await listMediaOfEvent(db(), event.id, { withArchived: true, purpose: "contribution" });
  const views = records.map(mediaView);
  return { items: views.filter((m) => !m.archived), archived: views.filter((m) => m.archived) };
}
