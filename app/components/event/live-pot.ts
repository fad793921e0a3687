import { useEffect, useState } from "react";
import { connectRealtime } from "~/realtime/client";
import type { PotUpdate } from "~/realtime/events";

/**
 * The gift-card pot and tree count of the Chorus `eventUuid`, as they grow while the page is open
 * (docs/decisions/028-trees-and-the-live-pot.md). Null until the first update: the page shows what it
 * was rendered with, which is also all a page without JavaScript shows (a reload brings it up to date).
 */
export function useLivePot(eventUuid: string | undefined) {
  const [pot, setPot] = useState<PotUpdate | null>(null);
  useEffect(() => {
    if (!eventUuid) return;
    const socket = connectRealtime("/public");
    socket.on("connect", () => socket.emit("event:join", eventUuid));
    socket.on("pot:updated", (update) => {
      if (update.eventUuid === eventUuid) setPot(update);
    });
    return () => socket.close();
  }, [eventUuid]);
  return pot;
}
