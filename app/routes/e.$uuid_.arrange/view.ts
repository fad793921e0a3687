import type { EventFormReply } from "~/services/events/event-page-view";

/** What a refused or invalid form of the page answers: the page again, with the reason. */
export type ArrangePageReply = EventFormReply;
