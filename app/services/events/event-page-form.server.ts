import type { Event } from "drizzle/schema";
import type { EventViewer } from "~/services/events/event-access.server";

/** What every form action of the event page works with: the event from the address, who asks, the form. */
export interface IntentContext {
  event: Event;
  viewer: EventViewer;
  form: FormData;
}

/** A form field as text; a missing field or a file is "". */
export const formText = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};
