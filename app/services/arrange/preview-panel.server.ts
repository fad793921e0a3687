import type { Media } from "drizzle/schema";
import { defaultTrimNote } from "~/domain/default-trim";
import { db } from "~/lib/db.server";
import { parseWith } from "~/lib/http.server";
import { signedMediaUrl } from "~/lib/media-url.server";
import { listMediaOfEvent } from "~/models/media.server";
import type { Segment, ThemeStyle } from "~/render/plan";
import { formText } from "~/services/events/event-page-form.server";
import { mediaOfEvent } from "~/services/media/media-access.server";
import { changeMedia, mediaChangesSchema } from "~/services/media/media-actions.server";
import { clipTrimOf } from "~/services/media/media-views.server";
import { renderPlanFor } from "~/services/render/render-plan.server";
import type { ArrangeContext, ArrangeIntent } from "./context.server";
import type { PreviewScene } from "./preview-panel-view";

function sceneOf(segment: Segment, fps: number, byId: Map<string, Media>): PreviewScene | null {
  const seconds = segment.frames / fps;
  if (segment.kind === "title") {
    return {
      kind: "title",
      key: segment.key,
      seconds,
      heading: segment.heading,
      subheading: segment.subheading,
      backgroundUrl: segment.backgroundUrl,
    };
  }
  if (segment.kind === "collage") {
    const imageUrls = segment.mediaIds.flatMap((id) => {
      const item = byId.get(id);
      return item ? [signedMediaUrl(item.mediaUuid, "rendition")] : [];
    });
    return { kind: "collage", key: segment.key, seconds, imageUrls, textBox: segment.textBox };
  }
  const item = byId.get(segment.mediaId);
  if (!item) return null;
  if (segment.kind === "clip") {
    return {
      kind: "clip",
      key: segment.key,
      mediaId: item.id,
      seconds,
      videoUrl: signedMediaUrl(item.mediaUuid, "rendition"),
      posterUrl: item.posterKey ? signedMediaUrl(item.mediaUuid, "poster") : null,
      inSeconds: segment.inSeconds,
      textBox: segment.textBox,
      trimNote: defaultTrimNote(clipTrimOf(item)),
    };
  }
  return {
    kind: "photo",
    key: segment.key,
    seconds,
    imageUrl: signedMediaUrl(item.mediaUuid, "rendition"),
    motion: segment.motion,
    focus: segment.focus ?? null,
    textBox: segment.textBox,
  };
}

/**
 * The preview: the arrangement as it would render now, played in the browser from the
 * renditions with the theme drawn in HTML and CSS — no render, no wait, nothing to pay.
 */
export async function loadPreviewPanel({ event }: ArrangeContext) {
  const [plan, media] = await Promise.all([renderPlanFor(event), listMediaOfEvent(db(), event.id, { purpose: "contribution" })]);
  const byId = new Map(media.map((m) => [m.id, m]));
  const scenes = plan.segments.flatMap((s) => sceneOf(s, plan.profile.fps, byId) ?? []);
  const style: ThemeStyle = plan.segments[0]!.style;
  return {
    scenes,
    style,
    transitionSeconds: plan.transitions[0] ? plan.transitions[0].frames / plan.profile.fps : 0,
    durationSeconds: plan.durationSeconds,
    music: plan.music
      ? {
          url: `/tracks/${plan.music.trackId}/audio`,
          startSeconds: plan.music.startSeconds,
          volume: plan.music.volume,
          fadeOutSeconds: plan.music.fadeOutSeconds,
        }
      : null,
  };
}

export const previewIntents: Record<string, ArrangeIntent> = {
  // Beside a clip of the running order: back to the whole clip, or to the trim processing found.
  async "clip-trim"({ event, user }, form) {
    const whole = formText(form, "trim") !== "default";
    const item = await mediaOfEvent(event, user, formText(form, "mediaId"));
    await changeMedia(item, parseWith(mediaChangesSchema, whole ? { trimStart: 0, trimEnd: null } : { useDefaultTrim: true }));
    return { section: "preview", toast: { type: "success", title: whole ? "The whole clip plays now." : "The suggested trim is back." } };
  },
};
