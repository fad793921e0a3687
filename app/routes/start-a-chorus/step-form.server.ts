import { createEventInput, MAX_PROMPTS, MAX_RECIPIENTS, type CreateEventInput } from "~/domain/event-input";
import type { StartDraft } from "~/domain/start-draft";
import { canonicalTimeZone, END_OF_DAY, isTimeOfDay, zonedDateTime } from "~/domain/zoned-time";
import { fieldErrors } from "~/lib/http.server";
import { occasionOfChoice } from "./occasion-choices";
import { STEPS, stepOwning, type StepId } from "./steps";

export type FieldErrors = Record<string, string>;

// A form may carry more rows than allowed (that is what the limits report), but not without end.
const MAX_ROWS_READ = 50;

function rowIndexes(form: FormData, prefix: string) {
  const pattern = new RegExp(`^${prefix}\\.(\\d+)(\\.|$)`);
  const indexes = new Set<number>();
  for (const key of form.keys()) {
    const match = pattern.exec(key);
    if (match && Number(match[1]) < MAX_ROWS_READ) indexes.add(Number(match[1]));
  }
  return [...indexes].sort((a, b) => a - b);
}

/** One step's fields, exactly as typed, written over the draft. */
export function readStepForm(step: StepId, form: FormData, draft: StartDraft): StartDraft {
  const value = (name: string) => {
    const entry = form.get(name);
    return typeof entry === "string" ? entry : "";
  };
  switch (step) {
    case "occasion": {
      const occasion = value("occasion");
      const { guestbook } = occasionOfChoice(occasion, form.has("guestbook"));
      return { ...draft, occasion, occasionOther: value("occasionOther"), guestbook };
    }
    case "recipients":
      return {
        ...draft,
        recipients: rowIndexes(form, "recipients").map((i) => ({
          firstName: value(`recipients.${i}.firstName`),
          lastName: value(`recipients.${i}.lastName`),
        })),
      };
    case "details":
      return {
        ...draft,
        deadlineDate: value("deadlineDate").trim(),
        deadlineTime: value("deadlineTime").trim(),
        // Browsers spell some zones differently ("Asia/Kolkata"); keep this engine's spelling.
        timeZone: canonicalTimeZone(value("timeZone").trim()) ?? value("timeZone").trim(),
        title: value("title"),
        message: value("message"),
        prompts: rowIndexes(form, "prompts").map((i) => value(`prompts.${i}`)),
      };
    case "review":
      return draft;
  }
}

/** "Add another person" and "Remove" without JavaScript: the step comes back with one row more or less. */
export function applyRowIntent(intent: string, draft: StartDraft): StartDraft | null {
  const [action, index] = intent.split(":");
  const at = Number(index);
  const recipients = draft.recipients.length ? draft.recipients : [{ firstName: "", lastName: "" }];
  switch (action) {
    case "add-recipient":
      return recipients.length < MAX_RECIPIENTS ? { ...draft, recipients: [...recipients, { firstName: "", lastName: "" }] } : draft;
    case "remove-recipient":
      return { ...draft, recipients: recipients.length > 1 ? recipients.filter((_, i) => i !== at) : [{ firstName: "", lastName: "" }] };
    case "add-prompt": {
      const prompts = draft.prompts.length ? draft.prompts : [""];
      return prompts.length < MAX_PROMPTS ? { ...draft, prompts: [...prompts, ""] } : draft;
    }
    case "remove-prompt":
      return { ...draft, prompts: draft.prompts.filter((_, i) => i !== at) };
    default:
      return null;
  }
}

const isBlankRecipient = (r: { firstName: string; lastName: string }) => !r.firstName.trim() && !r.lastName.trim();

/** Rows left empty are not mistakes: they are dropped before checking and after a step is done. */
export function withoutBlankRows(draft: StartDraft): StartDraft {
  return { ...draft, recipients: draft.recipients.filter((r) => !isBlankRecipient(r)), prompts: draft.prompts.filter((p) => p.trim()) };
}

/** The draft as `createEventInput` reads it, and where each checked row sits on the page. */
function toEventInput(draft: StartDraft) {
  const recipientRows = draft.recipients.flatMap((r, i) => (isBlankRecipient(r) ? [] : [i]));
  const promptRows = draft.prompts.flatMap((p, i) => (p.trim() ? [i] : []));
  const timeZone = draft.timeZone || "UTC";
  const deadline = zonedDateTime(draft.deadlineDate, draft.deadlineTime || END_OF_DAY, canonicalTimeZone(timeZone) ?? "UTC");
  const { occasion, guestbook } = occasionOfChoice(draft.occasion.trim(), draft.guestbook);
  return {
    input: {
      occasion: occasion || undefined, // "Choose an occasion." rather than "from the list"
      guestbook,
      occasionOther: draft.occasionOther,
      recipients: recipientRows.map((i) => draft.recipients[i]),
      deadline: deadline ?? undefined,
      timeZone,
      title: draft.title,
      message: draft.message,
      prompts: promptRows.map((i) => draft.prompts[i]),
    },
    recipientRows,
    promptRows,
  };
}

/** Schema paths back to the names of the fields on the page ("recipients.0" may be the third row). */
function toFormField(path: string, rows: { recipientRows: number[]; promptRows: number[] }) {
  if (path === "deadline") return "deadlineDate";
  const [root, index, ...rest] = path.split(".");
  if (index === undefined) return path;
  const row = (root === "recipients" ? rows.recipientRows : rows.promptRows)[Number(index)];
  return [root, row ?? index, ...rest].join(".");
}

// Known-good answers for the steps not being checked. Zod skips an object's refinements while
// any field fails, so checking one step alone against the full schema needs the others filled in.
const standIn = (now: Date) => ({
  occasion: "birthday",
  occasionOther: "",
  guestbook: false,
  recipients: [{ firstName: "Someone", lastName: "" }],
  deadline: new Date(now.getTime() + 24 * 60 * 60 * 1000),
  timeZone: "UTC",
  title: "",
  message: "",
  prompts: [],
});

const INPUT_FIELDS_OF: Record<StepId, string[]> = {
  occasion: ["occasion", "occasionOther", "guestbook"],
  recipients: ["recipients"],
  details: ["deadline", "timeZone", "title", "message", "prompts"],
  review: [],
};

/** The field errors of one step, with the same rules the final submit applies. */
export function validateStep(step: StepId, draft: StartDraft, now = new Date()): FieldErrors {
  const converted = toEventInput(draft);
  const input: Record<string, unknown> = standIn(now);
  for (const field of INPUT_FIELDS_OF[step]) input[field] = converted.input[field as keyof typeof converted.input];
  const errors: FieldErrors = {};
  if (step === "details" && draft.deadlineTime && !isTimeOfDay(draft.deadlineTime)) {
    errors.deadlineTime = "Enter a time like 18:30, or leave it empty for the end of the day.";
  }
  const parsed = createEventInput(now).safeParse(input);
  if (!parsed.success) {
    for (const [path, message] of Object.entries(fieldErrors(parsed.error))) errors[toFormField(path, converted)] ??= message;
  }
  return errors;
}

export type DraftCheck = { ok: true; input: CreateEventInput } | { ok: false; step: StepId; errors: FieldErrors };

/** The whole draft, ready to create, or the first step that needs attention with its errors. */
export function validateDraft(draft: StartDraft, analyticsClientId: string | null, now = new Date()): DraftCheck {
  const errors: FieldErrors = Object.assign({}, ...STEPS.map((step) => validateStep(step.id, draft, now)));
  const first = Object.keys(errors)[0];
  if (first) return { ok: false, step: stepOwning(first), errors };
  const parsed = createEventInput(now).safeParse({ ...toEventInput(draft).input, analyticsClientId: analyticsClientId ?? undefined });
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, step: "review", errors: { form: "Something in this draft doesn't look right. Please check each step." } };
}
