import { ACCEPTED_TRACK_NAMES, ACCEPTED_TRACK_TYPES, MAX_FADE_OUT_SECONDS, musicSettingsSchema } from "~/domain/track-rules";
import { db } from "~/lib/db.server";
import { badRequest, parseWith } from "~/lib/http.server";
import type { Toast } from "~/lib/toast.server";
import { formatBytes, formatDuration } from "~/media/upload-rejected-error";
import { findArrangement, updateArrangement } from "~/models/arrangement.server";
import { findTrackById } from "~/models/track.server";
import { listLibrary, openTrack, removeTrack, trackLimits, trackView } from "~/services/arrange/track-library.server";
import { formText } from "~/services/events/event-page-form.server";
import { queuePiecePreparation } from "~/services/render/piece-preparation.server";
import type { ArrangeContext, ArrangeIntent, ArrangeOutcome } from "./context.server";

/** The music part of the arrange page: the tracks to choose from, the choice, the upload limits. */
export async function loadMusicPanel({ event, user }: ArrangeContext) {
  const [library, arrangement] = await Promise.all([listLibrary(user), findArrangement(db(), event.id)]);
  const tracks = [...library];
  // A track chosen before its owner removed it from their library still plays in this video.
  if (arrangement.trackId && !tracks.some((t) => t.id === arrangement.trackId)) {
    const chosen = await findTrackById(db(), arrangement.trackId);
    if (chosen) tracks.push(chosen);
  }
  const limits = trackLimits();
  return {
    tracks: tracks.map((track) => ({ ...trackView(track), own: track.ownerId === user.id, archived: !!track.archivedAt })),
    choice: arrangement.trackId
      ? {
          trackId: arrangement.trackId,
          startSeconds: arrangement.musicStartSeconds,
          fadeOutSeconds: arrangement.musicFadeOutSeconds,
          volumePercent: Math.round(arrangement.musicVolume * 100),
        }
      : null,
    ownCount: library.filter((t) => t.ownerId === user.id).length,
    limits: {
      maxSize: formatBytes(limits.maxBytes),
      maxDuration: formatDuration(limits.maxSeconds),
      maxOwnTracks: limits.maxOwnTracks,
      maxFadeOutSeconds: MAX_FADE_OUT_SECONDS,
      accept: ACCEPTED_TRACK_TYPES,
      acceptedNames: ACCEPTED_TRACK_NAMES,
    },
  };
}

const backToMusic = (toast: Toast): ArrangeOutcome => ({ section: "music", toast });

/** The music part's plain-form actions, by intent. */
export const musicIntents: Record<string, ArrangeIntent> = {
  /** `trackId`: a ready track from the library, or "none" for a video without music. */
  async "music-choose"(context, form) {
    const id = formText(form, "trackId");
    if (id === "none") {
      await updateArrangement(db(), context.event.id, { trackId: null });
      await queuePiecePreparation(context.event.id);
      return backToMusic({ type: "success", title: "The video will have no music." });
    }
    const track = await openTrack(context.user, id);
    if (track.status !== "ready") throw badRequest("This track is not ready yet. Choose it once it has been prepared.");
    const arrangement = await findArrangement(db(), context.event.id);
    // Another track starts from its beginning: an offset into the last one means nothing here.
    const startSeconds = arrangement.trackId === track.id ? arrangement.musicStartSeconds : 0;
    await updateArrangement(db(), context.event.id, { trackId: track.id, musicStartSeconds: startSeconds });
    // Only the soundtrack changes: prepared ahead like every piece, publishing is left the join.
    await queuePiecePreparation(context.event.id);
    return backToMusic({ type: "success", title: `“${track.title}” will play under the video.` });
  },

  /** `startSeconds`, `fadeOutSeconds`, `volume` (percent) for the chosen track. */
  async "music-settings"(context, form) {
    const arrangement = await findArrangement(db(), context.event.id);
    const track = arrangement.trackId ? await findTrackById(db(), arrangement.trackId) : null;
    if (!track) throw badRequest("Choose a track first.");
    const settings = parseWith(musicSettingsSchema(track.durationSeconds ?? 0), {
      startSeconds: formText(form, "startSeconds"),
      fadeOutSeconds: formText(form, "fadeOutSeconds"),
      volume: formText(form, "volume"),
    });
    await updateArrangement(db(), context.event.id, {
      musicStartSeconds: settings.startSeconds,
      musicFadeOutSeconds: settings.fadeOutSeconds,
      musicVolume: settings.volume / 100,
    });
    await queuePiecePreparation(context.event.id);
    return backToMusic({ type: "success", title: "Music settings saved." });
  },

  /** `trackId`: one of the organiser's own tracks leaves their library (and this video, if chosen). */
  async "music-delete"(context, form) {
    const track = await removeTrack(context.user, formText(form, "trackId"));
    const arrangement = await findArrangement(db(), context.event.id);
    if (arrangement.trackId === track.id) {
      await updateArrangement(db(), context.event.id, { trackId: null });
      await queuePiecePreparation(context.event.id);
    }
    return backToMusic({ type: "success", title: `“${track.title}” was deleted.` });
  },
};

/** After the page's upload form (multipart, received by the route like POST /api/v2/tracks). */
export function trackUploaded(track: { title: string }): ArrangeOutcome {
  return backToMusic({
    type: "success",
    title: `“${track.title}” is uploaded.`,
    description: "We're preparing it: you can choose it in a moment.",
  });
}
