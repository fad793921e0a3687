import type { FormReply } from "~/lib/form.server";
import type { loadEventPage } from "./event-page.server";

// What the event page's components are handed (app/components/event/): the page each viewer sees,
// as event-page.server.ts shapes it, and the answer of its forms. Types only: the components import
// these, never the server module.

/** An action's answer: FormReply plus which form it belongs to. */
export interface EventFormReply extends FormReply {
  intent: string;
  /** Changes on every success, so the form that was sent can start empty again. */
  sentAt?: number;
}

export type EventPageData = Awaited<ReturnType<typeof loadEventPage>>["page"];
export type PageOf<K extends EventPageData["kind"]> = Extract<EventPageData, { kind: K }>;
/** The recipient's page and the view-only page share one shape. */
export type AudiencePage = Extract<EventPageData, { kind: "recipient" | "view-only" }>;
