import { useEffect, useState } from "react";
import { connectRealtime } from "~/realtime/client";
import type { TrackFields } from "~/realtime/events";

/** Fields of a `track:updated` message merged into the track with that id (spec §3 Track). */
export function mergeTrackUpdate<T extends { id: string }>(tracks: T[], fields: TrackFields): T[] {
  return tracks.map((track) => (track.id === fields.id ? { ...track, ...fields } : track));
}

/**
 * The panel's tracks: the page's data, then every `track:updated` the user's /users room hears
 * (an upload being prepared, then ready or failed). The page's data wins again on each reload.
 */
export function useLiveTracks<T extends { id: string }>(initial: T[]) {
  const [tracks, setTracks] = useState(initial);
  useEffect(() => setTracks(initial), [initial]);
  useEffect(() => {
    const socket = connectRealtime("/users");
    socket.on("track:updated", (fields) => setTracks((current) => mergeTrackUpdate(current, fields)));
    return () => {
      socket.close();
    };
  }, []);
  return tracks;
}
