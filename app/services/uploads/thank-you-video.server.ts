import type { Event } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { listMediaOfEvent } from "~/models/media.server";
import { mediaView } from "~/services/media/media-views.server";
import type { ThankYouVideo } from "./thank-you-video-view";

/** The recipient's latest ready thank-you clip, with signed links, for the people it thanks. */
export async function thankYouVideoOf(event: Event): Promise<ThankYouVideo | null> {
  const ready = (await listMediaOfEvent(db(), event.id, { purpose: "thank_you" })).filter((m) => m.status === "ready" && !m.hidden);
  const latest = ready.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  if (!latest) return null;
  const view = mediaView(latest);
  if (!view.renditionUrl) return null;
  return { posterUrl: view.posterUrl, videoUrl: view.renditionUrl, width: latest.width, height: latest.height };
}
