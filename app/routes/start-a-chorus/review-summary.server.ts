import { formatDeadlineDay } from "~/domain/event-dates";
import { findOccasion } from "~/domain/occasions";
import { formatRecipientNames, occasionTitle } from "~/domain/recipient-names";
import type { StartDraft } from "~/domain/start-draft";
import { timeZoneOptions } from "~/domain/time-zones";
import { canonicalTimeZone, END_OF_DAY, zonedDateTime } from "~/domain/zoned-time";
import { occasionChoices, occasionOfChoice } from "./occasion-choices";
import { validateStep, withoutBlankRows } from "./step-form.server";
import { STEPS, type StepId } from "./steps";

/** What the Chorus will be called when it has no title, as the event page will say it. */
export function defaultHeadline(draft: StartDraft) {
  const { occasion } = occasionOfChoice(draft.occasion, draft.guestbook);
  const phrase =
    occasion === "other" && draft.occasionOther.trim()
      ? draft.occasionOther.trim()
      : (findOccasion(occasion)?.phrase ?? "special occasion");
  return occasionTitle(withoutBlankRows(draft).recipients, phrase);
}

function occasionSummary(draft: StartDraft) {
  const choice = occasionChoices().find((c) => c.value === draft.occasion);
  if (!choice) return null;
  const { occasion, guestbook } = occasionOfChoice(draft.occasion, draft.guestbook);
  const custom = occasion === "other" ? draft.occasionOther.trim() : "";
  const label = custom ? (guestbook ? `${custom} Guestbook` : custom) : guestbook ? choice.guestbookLabel : choice.label;
  return { type: choice.value, label, guestbook };
}

function deadlineSummary(draft: StartDraft, now: Date) {
  const zone = canonicalTimeZone(draft.timeZone || "UTC") ?? "UTC";
  const time = draft.deadlineTime || END_OF_DAY;
  const instant = zonedDateTime(draft.deadlineDate, time, zone);
  if (!instant) return null;
  const zoneLabel = timeZoneOptions(zone, now).find((option) => option.value === zone)?.label ?? zone;
  return { day: formatDeadlineDay(instant, zone), time, zone: zoneLabel };
}

/** Everything the review step shows, and what each step still needs. */
export function reviewSummary(draft: StartDraft, now = new Date()) {
  const complete = withoutBlankRows(draft);
  const problems = Object.fromEntries(STEPS.map((step) => [step.id, Object.values(validateStep(step.id, draft, now))])) as Record<
    StepId,
    string[]
  >;
  return {
    occasion: occasionSummary(draft),
    recipients: formatRecipientNames(complete.recipients),
    headline: draft.title.trim() || defaultHeadline(draft),
    hasTitle: draft.title.trim().length > 0,
    deadline: deadlineSummary(draft, now),
    message: draft.message.trim(),
    prompts: complete.prompts.map((p) => p.trim()),
    problems,
  };
}

export type ReviewSummary = ReturnType<typeof reviewSummary>;
