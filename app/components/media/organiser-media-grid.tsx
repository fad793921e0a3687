import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useIntentReply } from "~/components/event/event-intent-form";
import { FormMessages } from "~/components/ui/field";
import { moveInOrder } from "~/domain/media-rules";
import type { OrganiserMedia } from "~/services/media/media-view";
import { useLiveMedia } from "./organiser-live-media";
import { ArchivedMediaRow, OrganiserMediaCard, type DragHandlers } from "./organiser-media-card";

const MEDIA_INTENTS = ["media-move", "media-visibility", "media-archive", "media-restore", "media-edit"];

/**
 * Drag-and-drop reordering once JavaScript runs (the Move up / Move down forms work without
 * it): the card moves at once, and the new position is sent to the page's action.
 */
function useDragToReorder(media: OrganiserMedia, setMedia: (media: OrganiserMedia) => void) {
  const fetcher = useFetcher();
  const { pathname, search } = useLocation();
  const [hydrated, setHydrated] = useState(false);
  const [dragging, setDragging] = useState<string | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);

  const handlersFor = (id: string): DragHandlers | undefined =>
    hydrated
      ? {
          onDragStart(event) {
            event.dataTransfer.effectAllowed = "move";
            event.dataTransfer.setData("text/plain", id);
            setDragging(id);
          },
          onDragOver(event) {
            if (!dragging) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = "move";
            if (target !== id) setTarget(id);
          },
          onDrop(event) {
            event.preventDefault();
            const moved = dragging;
            setDragging(null);
            setTarget(null);
            if (!moved || moved === id) return;
            const order = moveInOrder(
              media.items.map((m) => m.id),
              moved,
              media.items.findIndex((m) => m.id === id),
            );
            const byId = new Map(media.items.map((m) => [m.id, m]));
            setMedia({ ...media, items: order.map((mid, position) => ({ ...byId.get(mid)!, position })) });
            fetcher.submit(
              { intent: "media-move", mediaId: moved, position: String(order.indexOf(moved)) },
              { method: "post", action: `${pathname}${search}` },
            );
          },
          onDragEnd() {
            setDragging(null);
            setTarget(null);
          },
        }
      : undefined;
  return { handlersFor, dragging, target };
}

/** The organiser's contributions, live: the montage in order, then what was archived. */
export function OrganiserMediaGrid({ media: initial, eventUuid }: { media: OrganiserMedia; eventUuid: string }) {
  const [media, setMedia] = useLiveMedia(initial, eventUuid);
  const { handlersFor, dragging, target } = useDragToReorder(media, setMedia);
  const reply = useIntentReply(...MEDIA_INTENTS);
  // A failed edit is said inside its own form; everything else here.
  const said = reply && !(reply.intent === "media-edit" && !reply.ok && reply.errors) ? reply : undefined;
  return (
    <div className="organiser-media">
      <FormMessages formError={said?.formError} message={said?.message} />
      {media.items.length === 0 ? (
        <p className="empty-note">No contributions yet. Share the link and they'll appear here as they arrive.</p>
      ) : (
        <>
          <p className="field-hint">
            {media.items.length} in the video, in this order. Drag a card or use Move up and Move down to rearrange.
          </p>
          <ol className="organiser-media__grid">
            {media.items.map((item, index) => (
              <OrganiserMediaCard
                key={item.id}
                item={item}
                index={index}
                count={media.items.length}
                drag={handlersFor(item.id)}
                state={dragging === item.id ? "dragging" : target === item.id ? "target" : undefined}
              />
            ))}
          </ol>
        </>
      )}
      {media.archived.length ? (
        <details className="organiser-media__archived">
          <summary>Archived ({media.archived.length})</summary>
          <ul>
            {media.archived.map((item) => (
              <ArchivedMediaRow key={item.id} item={item} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
