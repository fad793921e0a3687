import type { Event, User } from "drizzle/schema";
import type { z } from "zod";
import { canManageEvent } from "~/domain/event-permissions";
import { forbidden, unauthorized } from "~/lib/http.server";
import type { toastSchema } from "~/lib/toast.server";
import type { EventKeys, EventViewer } from "~/services/events/event-access.server";
import type { EventFormReply } from "~/services/events/event-page-view";
import { openEventByUuid } from "~/services/events/open-event.server";

/** What every part of the arrange page works with: the organiser's event and the organiser. */
export interface ArrangeContext {
  event: Event;
  viewer: EventViewer;
  /** The organiser (or an admin) arranging the video. */
  user: User;
}

/** Opens /e/{uuid}/arrange for `user`, with the keys in its address: only those who manage the event arrange its video. */
export async function openArrangement(user: User | null, rawUuid: string | undefined, keys: EventKeys): Promise<ArrangeContext> {
  const { event, viewer } = await openEventByUuid(user, rawUuid, keys);
  if (!viewer.user) throw unauthorized();
  if (!canManageEvent(viewer.role) || event.deletedAt) throw forbidden("Only the organiser can arrange this video.");
  return { event, viewer, user: viewer.user };
}

/**
 * What an arrange-page action came to: back to a section of the page with a toast, or (when the
 * form must show what was typed) a reply to the form with its status. The route makes the answer.
 */
export type ArrangeOutcome =
  { section: "theme" | "music" | "preview" | "render"; toast: z.input<typeof toastSchema> } | { reply: EventFormReply; status: number };

/** A plain-form handler on the arrange page, by intent. */
export type ArrangeIntent = (context: ArrangeContext, form: FormData) => Promise<ArrangeOutcome>;
