import type { EventFormReply } from "~/services/events/event-page-view";

/** What a refused or invalid press of the page's form answers: the page again, with the reason and the code as typed. */
export type CheckoutPageReply = EventFormReply;
