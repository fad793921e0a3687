import { z } from "zod";
import { isTimeZone } from "./event-input";

// Shared by the forms and the API so both refuse the same input with the same words.
export const emailField = z
  .string({ error: "Enter your e-mail address." })
  .trim()
  .min(1, "Enter your e-mail address.")
  .max(254, "That e-mail address is too long.")
  .pipe(z.email("Enter a valid e-mail address, like name@example.com."));

export const newPasswordField = z
  .string({ error: "Choose a password." })
  .min(8, "Use at least 8 characters.")
  .max(128, "Use at most 128 characters.");

export const passwordField = z
  .string({ error: "Enter your password." })
  .min(1, "Enter your password.")
  .max(128, "That password is too long.");

export const nameField = z.string().trim().max(80, "Use at most 80 characters.");

export const loginInput = z.object({ email: emailField, password: passwordField });

export const registerInput = z.object({
  email: emailField,
  password: newPasswordField,
  firstName: nameField.optional().default(""),
  lastName: nameField.optional().default(""),
});

export const resetPasswordInput = z.object({ password: newPasswordField });
export const emailOnlyInput = z.object({ email: emailField });

export const changePasswordInput = z.object({ currentPassword: passwordField, newPassword: newPasswordField });
export const changeEmailInput = z.object({ email: emailField, password: passwordField });

/** Fields a user may change on their own profile. Checkboxes arrive as "on" from forms. */
export const profileInput = z.object({
  firstName: nameField.optional(),
  lastName: nameField.optional(),
  phone: z
    .string()
    .trim()
    .max(32, "Use at most 32 characters.")
    .regex(/^[+()\d\s.-]*$/, "Use digits, spaces and + ( ) - only.")
    .optional()
    .transform((v) => (v ? v : null)),
  timeZone: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isTimeZone(v), "Choose a time zone from the list."),
  marketingOptIn: z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === true || v === "on" || v === "true")),
});

/**
 * How long a log-in to an account waits, given its wrong passwords from everywhere in the window:
 * nothing up to the limit, then one step more per failure, capped.
 */
export function loginSlowdownMs(failures: number, settings: { limit: number; stepMs: number; maxMs: number }) {
  if (failures < settings.limit) return 0;
  return Math.min(settings.maxMs, (failures - settings.limit + 1) * settings.stepMs);
}
