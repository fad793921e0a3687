import { z } from "zod";

// What an organiser types into "Start a Chorus" before the Chorus exists: kept as a draft between
// steps (app/services/events/start-draft-session.server.ts), checked on each step and at the end.

const text = z.string().catch("");

/** What the organiser has typed so far; loose on purpose: it is checked on each step and at the end. */
export const startDraftSchema = z.object({
  /** The picker's choice: an occasion type, or "wedding-guestbook" (spec §2.4). */
  occasion: text,
  occasionOther: text,
  guestbook: z.boolean().catch(false),
  recipients: z.array(z.object({ firstName: text, lastName: text })).catch([]),
  /** yyyy-mm-dd and HH:MM, read in `timeZone`. */
  deadlineDate: text,
  deadlineTime: text,
  /** Empty until chosen: the page then proposes the browser's zone. */
  timeZone: text,
  title: text,
  message: text,
  prompts: z.array(z.string()).catch([]),
});

export type StartDraft = z.infer<typeof startDraftSchema>;

export const emptyStartDraft = (): StartDraft => startDraftSchema.parse({});

/** Whether the organiser has begun a draft worth offering to resume. */
export const hasStartedDraft = (draft: StartDraft) =>
  draft.occasion !== "" || draft.recipients.some((r) => r.firstName.trim() || r.lastName.trim());
