import { z } from "zod";

// Field types the environment schema (env.server.ts, env-vendors.server.ts) is written with.

/** "true"/"1" is on; anything else, or unset, is off. */
export const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** A URL, or unset (an empty value counts as unset). */
export const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

/** A text, or unset (an empty value counts as unset). */
export const optionalText = z
  .string()
  .optional()
  .transform((v) => v || undefined);
