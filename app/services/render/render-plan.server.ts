import type { Event, Media, Theme } from "drizzle/schema";
import { themeLookOf } from "~/domain/built-in-themes";
import { introCard, outroCard } from "~/domain/montage-copy";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { findArrangement } from "~/models/arrangement.server";
import { listRecipients } from "~/models/event.server";
import { listMediaOfEvent } from "~/models/media.server";
import { findTrackById } from "~/models/track.server";
import { orderedItems, planRender, type PlanMedia, type PlanTheme, type PlanTrack, type RenderPlan, type Resolution } from "~/render/plan";
import { themeFor } from "~/services/arrange/themes.server";

const planMedia = (item: Media): PlanMedia => ({
  id: item.id,
  kind: item.kind ?? "photo",
  status: item.status,
  renditionKey: item.renditionKey,
  durationSeconds: item.durationSeconds,
  trimStart: item.trimStart,
  trimEnd: item.trimEnd,
  caption: item.caption,
  contributorName: item.contributorName,
  hidden: item.hidden,
  archived: !!item.archivedAt,
  position: item.position,
  hasAudio: item.hasAudio,
  focus: item.focusX === null || item.focusY === null ? null : { x: item.focusX, y: item.focusY },
});

export const planTheme = (theme: Theme): PlanTheme => ({ id: theme.id, ...themeLookOf(theme) });

/** The event's montage as it stands: its arrangement, theme, music and ready contributions. */
export async function renderPlanFor(event: Event, options: { resolution?: Resolution } = {}): Promise<RenderPlan> {
  const [arrangement, recipients, media, theme] = await Promise.all([
    findArrangement(db(), event.id),
    listRecipients(db(), event.id),
    listMediaOfEvent(db(), event.id, { purpose: "contribution" }),
    themeFor(event.id),
  ]);
  const trackRow = arrangement.trackId ? await findTrackById(db(), arrangement.trackId) : null;
  const track: PlanTrack | null =
    trackRow && trackRow.status === "ready" && trackRow.renditionKey && trackRow.durationSeconds
      ? {
          id: trackRow.id,
          renditionKey: trackRow.renditionKey,
          durationSeconds: trackRow.durationSeconds,
          startSeconds: arrangement.musicStartSeconds,
          fadeOutSeconds: arrangement.musicFadeOutSeconds,
          volume: arrangement.musicVolume,
        }
      : null;
  const settings = env();
  const items = media.map(planMedia);
  // The closing card names those whose items are in the video, by the same rule that puts them in.
  const { included } = orderedItems(items);
  return planRender({
    intro: introCard({ title: event.title, occasion: event.occasion, occasionOther: event.occasionOther, recipients }),
    outro: outroCard(included.map((m) => m.contributorName)),
    theme: planTheme(theme),
    media: items,
    track,
    resolution: options.resolution ?? arrangement.resolution,
    timing: {
      photoSeconds: settings.RENDER_PHOTO_SECONDS,
      collageSeconds: settings.RENDER_PHOTO_SECONDS * 1.2,
      titleSeconds: settings.RENDER_TITLE_SECONDS,
    },
  });
}
