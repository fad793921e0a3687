import type { Event } from "drizzle/schema";
import type { Toast } from "~/lib/toast.server";
import type { EventViewer } from "~/services/events/event-access.server";
import type { EventFormReply } from "~/services/events/event-page-view";

/** What every form action of the event page works with: the event from the address, who asks, the form. */
export interface IntentContext {
  event: Event;
  viewer: EventViewer;
  form: FormData;
}

/**
 * What a form action of the event page came to: a reply to the form that was sent, or back to the
 * page (at `section`, if any) with a toast. The route makes the answer.
 */
export type EventIntentOutcome = { reply: EventFormReply } | { toast: Toast; section: string };

export type EventIntent = (context: IntentContext) => Promise<EventIntentOutcome>;

/** The form did what it asked: its reply says so and lets it start empty again. */
export const formDone = (intent: string, message: string): EventIntentOutcome => ({
  reply: { intent, ok: true, message, sentAt: Date.now() },
});

/** A form field as text; a missing field or a file is "". */
export const formText = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
