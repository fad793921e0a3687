import { z } from "zod";
import { findOccasion } from "./occasions";

export const MAX_PROMPTS = 10;
export const MAX_PROMPT_LENGTH = 300;
export const MAX_RECIPIENTS = 10;
const YEAR_MS = 366 * 24 * 60 * 60 * 1000;

/** Any zone this runtime's Intl knows, old and new spellings alike ("Asia/Kolkata" and "Asia/Calcutta"). */
export function isTimeZone(value: string) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return value.length > 0 && value.length <= 64;
  } catch {
    return false;
  }
}

export const recipientInput = z.object({
  firstName: z.string({ error: "Enter a first name." }).trim().min(1, "Enter a first name.").max(60, "Use at most 60 characters."),
  lastName: z.string().trim().max(60, "Use at most 60 characters.").optional().default(""),
});

const occasionField = z
  .string({ error: "Choose an occasion." })
  .trim()
  .refine((type) => findOccasion(type)?.webApp === true, "Choose an occasion from the list.");

const promptsField = z
  .array(z.string().trim().max(MAX_PROMPT_LENGTH, `Keep each question under ${MAX_PROMPT_LENGTH} characters.`))
  .max(MAX_PROMPTS, `Ask at most ${MAX_PROMPTS} questions.`)
  .transform((prompts) => prompts.filter((p) => p.length > 0));

const timeZoneField = z.string().trim().refine(isTimeZone, "Choose a time zone from the list.");

/** A deadline must be ahead of now (with a minute's grace for slow forms) and within a year. */
export const deadlineField = (now: Date) =>
  z.coerce
    .date({ error: "Choose a deadline." })
    .refine((d) => d.getTime() > now.getTime() - 60_000, "The deadline must be in the future.")
    .refine((d) => d.getTime() < now.getTime() + YEAR_MS, "Choose a deadline within a year.");

/** What it takes to start a Chorus (spec §3 Event, §2.3 webApp occasions). */
export const createEventInput = (now = new Date()) =>
  z
    .object({
      occasion: occasionField,
      occasionOther: z.string().trim().max(60, "Use at most 60 characters.").optional().default(""),
      guestbook: z.boolean().optional().default(false),
      recipients: z.array(recipientInput).min(1, "Add who the Chorus is for.").max(MAX_RECIPIENTS, `Add at most ${MAX_RECIPIENTS} people.`),
      deadline: deadlineField(now),
      timeZone: timeZoneField.optional().default("UTC"),
      title: z.string().trim().max(120, "Use at most 120 characters.").optional().default(""),
      message: z.string().trim().max(2000, "Keep the message under 2,000 characters.").optional().default(""),
      prompts: promptsField.optional().default([]),
      analyticsClientId: z.string().trim().max(100).optional(),
    })
    .refine((e) => e.occasion !== "other" || e.occasionOther.length > 0, {
      path: ["occasionOther"],
      message: "Say what the occasion is.",
    });

export type CreateEventInput = z.infer<ReturnType<typeof createEventInput>>;

/** Fields an organiser may change after creation (protected fields are stripped before this). */
export const updateEventInput = (now = new Date()) =>
  z
    .object({
      occasion: occasionField.optional(),
      occasionOther: z.string().trim().max(60, "Use at most 60 characters.").optional(),
      guestbook: z.boolean().optional(),
      status: z.enum(["active", "closed"]).optional(),
      deadline: deadlineField(now).optional(),
      deliveryAt: z.coerce.date().nullable().optional(),
      timeZone: timeZoneField.optional(),
      title: z.string().trim().max(120, "Use at most 120 characters.").optional(),
      message: z.string().trim().max(2000, "Keep the message under 2,000 characters.").optional(),
      prompts: promptsField.optional(),
    })
    .strict();

/** What the recipient may change from their private page, without an account. */
export const recipientUpdateInput = z
  .object({
    thankYouMessage: z.string().trim().max(2000, "Keep the message under 2,000 characters."),
  })
  .strict();

/** A recipient as added from the event page: a name, and optionally how to deliver the video to them. */
export const recipientWithContactInput = recipientInput.extend({
  email: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((v) => (v ? v.toLowerCase() : null))
    .pipe(z.email("Enter a valid e-mail address.").nullable()),
  phone: z.string().trim().max(32).optional(),
});
