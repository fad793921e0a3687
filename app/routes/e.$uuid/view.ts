import type { EventFormReply } from "~/services/events/event-page-view";

/** What a refused or invalid form of the page answers: the same page, with the form's errors and values. */
export type EventPageReply = EventFormReply;
