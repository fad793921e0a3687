import { START_PATH } from "~/domain/product";

/** The four steps of starting a Chorus, in order; each owns the draft fields it asks for. */
export const STEPS = [
  { id: "occasion", title: "Occasion", fields: ["occasion", "occasionOther", "guestbook"] },
  { id: "recipients", title: "Who it's for", fields: ["recipients"] },
  { id: "details", title: "Details", fields: ["deadlineDate", "deadlineTime", "timeZone", "title", "message", "prompts"] },
  { id: "review", title: "Review", fields: [] },
] as const;

export type StepId = (typeof STEPS)[number]["id"];

export const isStepId = (value: unknown): value is StepId => STEPS.some((step) => step.id === value);

/** The step in the URL (`?step=details`); the first step when there is none or it is unknown. */
export const stepFromUrl = (url: URL): StepId => {
  const step = url.searchParams.get("step");
  return isStepId(step) ? step : "occasion";
};

export const stepIndex = (step: StepId) => STEPS.findIndex((s) => s.id === step);
export const stepPath = (step: StepId) => `${START_PATH}?step=${step}`;

export const nextStep = (step: StepId): StepId => STEPS[Math.min(stepIndex(step) + 1, STEPS.length - 1)]!.id;
export const previousStep = (step: StepId): StepId => STEPS[Math.max(stepIndex(step) - 1, 0)]!.id;

/** The step that asks for a form field ("recipients.2.firstName" belongs to "recipients"). */
export function stepOwning(field: string): StepId {
  const root = field.split(".")[0]!;
  return STEPS.find((step) => (step.fields as readonly string[]).includes(root))?.id ?? "review";
}
