import type { Track, User } from "drizzle/schema";
import { BUILT_IN_TRACKS, findBuiltInTrack, type TrackMood } from "~/domain/built-in-tracks";
import { MAX_OWN_TRACKS } from "~/domain/track-rules";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { forbidden, notFound } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { archiveOwnTrack, findTrackVisibleTo, listTracksVisibleTo } from "~/models/track.server";

// The music an organiser can choose from (spec §3 Track, §7.2 /api/v2/tracks): the built-ins
// and their own uploads, never anyone else's.

export function trackLimits() {
  const settings = env();
  return { maxBytes: settings.MAX_TRACK_BYTES, maxSeconds: settings.MAX_TRACK_SECONDS, maxOwnTracks: MAX_OWN_TRACKS };
}

/** A track as the API and the music panel show it: no storage keys, no owner id. */
export function trackView(track: Track) {
  const builtIn = findBuiltInTrack(track.slug);
  return {
    id: track.id,
    title: track.title,
    artist: track.artist,
    licence: track.licence,
    mood: (builtIn?.mood ?? null) as TrackMood | null,
    builtIn: !!track.slug,
    /** Rendering with it needs the premium finish; choosing and listening to it does not. */
    premium: track.isPremium,
    status: track.status,
    failureReason: track.failureReason,
    durationSeconds: track.durationSeconds,
    loudnessLufs: track.loudnessLufs,
    waveform: track.waveform,
    originalName: track.originalName,
    /** Preview listening; the file is there once the track is ready. */
    audioUrl: `/tracks/${track.id}/audio`,
    createdAt: track.createdAt.toISOString(),
  };
}

const catalogueOrder = (track: Track) => {
  const index = BUILT_IN_TRACKS.findIndex((t) => t.slug === track.slug);
  return index < 0 ? BUILT_IN_TRACKS.length : index;
};

/** Built-ins in the catalogue's order, then the user's own tracks, oldest first. */
export async function listLibrary(user: Pick<User, "id">) {
  const rows = await listTracksVisibleTo(db(), user.id);
  return rows
    .map((track, position) => ({ track, position }))
    .sort((a, b) => catalogueOrder(a.track) - catalogueOrder(b.track) || a.position - b.position)
    .map(({ track }) => track);
}

/** A track the user may see, or a 404 that does not tell whether someone else's exists. */
export async function openTrack(user: Pick<User, "id">, rawId: string | undefined) {
  const track = await findTrackVisibleTo(db(), user.id, uuidParam(rawId, "track"));
  if (!track) throw notFound("There is no track with this id.");
  return track;
}

/** Removes one of the user's own tracks from their library (archived: events that chose it keep it). */
export async function removeTrack(user: Pick<User, "id">, rawId: string | undefined) {
  const track = await openTrack(user, rawId);
  if (track.slug) throw forbidden("Built-in tracks cannot be deleted.");
  const archived = await archiveOwnTrack(db(), user.id, track.id);
  if (!archived) throw notFound("There is no track with this id.");
  return archived;
}
