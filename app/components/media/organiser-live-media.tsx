import { useEffect, useState } from "react";
import { connectRealtime } from "~/realtime/client";
import type { OrganiserMedia, MediaView } from "~/services/media/media-view";

const inOrder = (a: MediaView, b: MediaView) => a.position - b.position || a.createdAt.localeCompare(b.createdAt);

/** One item as the server now has it, merged into the grid: new ones appear, archived ones move below. */
export function mergeMediaUpdate(current: OrganiserMedia, item: MediaView): OrganiserMedia {
  if (item.purpose !== "contribution") return current;
  const all = [...current.items, ...current.archived].filter((m) => m.id !== item.id).concat(item);
  return { items: all.filter((m) => !m.archived).sort(inOrder), archived: all.filter((m) => m.archived).sort(inOrder) };
}

/**
 * The grid's items: the page's data, then every `media:updated` the organiser's /users room
 * hears for this event (uploads arriving, processing finishing, changes from another tab).
 * The page's data wins again whenever it is reloaded after an action.
 */
export function useLiveMedia(initial: OrganiserMedia, eventUuid: string) {
  const [media, setMedia] = useState(initial);
  useEffect(() => setMedia(initial), [initial]);
  useEffect(() => {
    const socket = connectRealtime("/users");
    socket.on("media:updated", (update) => {
      if (update.eventUuid === eventUuid) setMedia((current) => mergeMediaUpdate(current, update.media as unknown as MediaView));
    });
    return () => {
      socket.close();
    };
  }, [eventUuid]);
  return [media, setMedia] as const;
}
