import type { EventFormReply } from "~/services/events/event-page.server";

/** What a refused or invalid form of the page answers: the page again, with the reason. */
export type ArrangePageReply = EventFormReply;
