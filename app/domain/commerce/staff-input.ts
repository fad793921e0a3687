import { z } from "zod";
import { PRODUCTS } from "./catalogue";
import { CURRENCY, parseMoney } from "./money";
import type { PromoKind } from "./promo-codes";

// What staff type into the payment and promo code forms, checked the same way for every caller.

/** Products a code can be limited to: everything a cart sells (memberships are not bought through a cart). */
export const promoCodeProducts = () => PRODUCTS.filter((p) => p.kind !== "membership");

/** Codes people type: letters, digits and dashes, 3 to 32 of them, kept upper-case. */
const CODE_PATTERN = /^[A-Z0-9][A-Z0-9-]{2,31}$/;

const optionalCount = (what: string) =>
  z
    .string()
    .trim()
    .max(9, `Use a whole number for ${what}.`)
    .optional()
    .transform((text, ctx) => {
      if (!text) return null;
      const count = /^\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isInteger(count) || count < 1) {
        ctx.addIssue({ code: "custom", message: `Use a whole number of 1 or more for ${what}, or leave it empty for no limit.` });
        return z.NEVER;
      }
      return count;
    });

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A code staff make, as the form sends it; `now` decides what "in the past" is. */
export const promoCodeInput = (now: Date) =>
  z
    .object({
      code: z
        .string()
        .trim()
        .max(32, "Use at most 32 letters, digits and dashes.")
        .optional()
        .transform((text) => (text ? text.toUpperCase() : null))
        .refine(
          (code) => code === null || CODE_PATTERN.test(code),
          "Use 3 to 32 letters, digits and dashes, starting with a letter or digit.",
        ),
      kind: z.enum(["percent", "amount"], { error: "Choose a percentage or an amount off." }),
      value: z.string({ error: "Enter how much the code takes off." }).trim().min(1, "Enter how much the code takes off.").max(12),
      expiresOn: z
        .string()
        .trim()
        .optional()
        .transform((text, ctx) => {
          if (!text) return null;
          const end = DATE.test(text) ? new Date(`${text}T00:00:00Z`).getTime() + 86_400_000 : NaN;
          if (Number.isNaN(end)) {
            ctx.addIssue({ code: "custom", message: "Use a date like 2030-12-31." });
            return z.NEVER;
          }
          if (end <= now.getTime()) {
            ctx.addIssue({ code: "custom", message: "Choose a day from today on." });
            return z.NEVER;
          }
          // The code works until the end of that day, UTC.
          return new Date(end);
        }),
      maxRedemptions: optionalCount("the number of uses"),
      maxPerUser: optionalCount("the uses per person"),
      productKeys: z
        .array(z.string())
        .max(20)
        .default([])
        .refine((keys) => keys.every((key) => promoCodeProducts().some((p) => p.key === key)), "Choose among the products we sell.")
        .transform((keys) => [...new Set(keys)]),
      firstPurchaseOnly: z
        .string()
        .optional()
        .transform((text) => text === "on" || text === "true"),
    })
    // Checked even when other fields are wrong, so every mistake is named at once.
    .refine((input) => promoValue(input.kind, input.value) !== null, {
      path: ["value"],
      error: (issue) =>
        (issue.input as { kind?: string }).kind === "amount"
          ? "Enter an amount in dollars, like 2.50."
          : "Enter a whole percentage from 1 to 100.",
      when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === "kind" || issue.path?.[0] === "value"),
    })
    .transform((input) => ({
      ...input,
      value: promoValue(input.kind, input.value)!,
      currency: input.kind === "amount" ? CURRENCY : null,
    }));

/** A percentage (1–100) or an amount in the catalogue's currency, as minor units; null when it is neither. */
function promoValue(kind: PromoKind, typed: string) {
  if (kind === "amount") return parseMoney(typed, CURRENCY);
  const percent = /^\d{1,3}$/.test(typed) ? Number(typed) : NaN;
  return percent >= 1 && percent <= 100 ? percent : null;
}

export type PromoCodeInput = z.infer<ReturnType<typeof promoCodeInput>>;

/** A refund staff ask for: all that is left, or part of it in the currency's units, and why. */
export const refundInput = z
  .object({
    scope: z.enum(["whole", "part"], { error: "Choose a whole or a partial refund." }),
    amount: z.string().trim().max(20, "Enter an amount like 2.50.").optional().default(""),
    reason: z
      .string({ error: "Say why, for the record." })
      .trim()
      .min(1, "Say why, for the record.")
      .max(500, "Use at most 500 characters."),
  })
  .superRefine((input, ctx) => {
    if (input.scope === "part" && !input.amount) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "Enter the amount to refund, like 2.50." });
    }
  });
