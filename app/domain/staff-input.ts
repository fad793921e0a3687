import { z } from "zod";

// What staff type into the moderation and announcement forms, checked the same way for every caller.

/** Why a Chorus is taken down, in words its organiser reads in the e-mail that tells them. */
export const takeDownInput = z.object({
  eventId: z.string().uuid("There is no Chorus with this id."),
  reason: z
    .string({ error: "Say why, for its organiser." })
    .trim()
    .min(3, "Say why, for its organiser.")
    .max(1000, "Keep it under 1,000 characters."),
});

export const moderatedEventInput = z.object({ eventId: z.string().uuid("There is no Chorus with this id.") });

/** "2030-12-31T18:05", as a datetime-local field sends it; staff pages read and write times in UTC. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

const optionalUtcTime = (what: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((text, ctx) => {
      if (!text) return null;
      const at = DATE_TIME.test(text) ? new Date(`${text}Z`) : new Date(NaN);
      if (Number.isNaN(at.getTime())) {
        ctx.addIssue({ code: "custom", message: `Use a date and time like 2030-12-31 18:05 for ${what}.` });
        return z.NEVER;
      }
      return at;
    });

/** Where a banner may lead: a page of this site ("/pricing") or an https address. */
const isBannerLink = (text: string) => {
  if (text.startsWith("/")) return !text.startsWith("//") && !text.includes("\\");
  try {
    return new URL(text).protocol === "https:";
  } catch {
    return false;
  }
};

/** Spec §9: "promotion" shows green; any other kind yellow. Kinds are short words. */
const KIND = /^[a-z][a-z0-9-]{1,23}$/;

/** An announcement as staff write it; `now` decides what "already over" is. */
export const announcementInput = (now: Date) =>
  z
    .object({
      message: z
        .string({ error: "Write the banner's message." })
        .trim()
        .min(3, "Write the banner's message.")
        .max(280, "Keep it under 280 characters: it is one line on a phone."),
      kind: z
        .string({ error: "Choose a kind." })
        .trim()
        .toLowerCase()
        .refine((kind) => KIND.test(kind), "Use one short word, like promotion or notice."),
      link: z
        .string()
        .trim()
        .max(500, "Keep the link under 500 characters.")
        .optional()
        .transform((text) => text || null)
        .refine((link) => link === null || isBannerLink(link), "Use a page of this site (/pricing) or an https:// address."),
      startsAt: optionalUtcTime("the start"),
      endsAt: optionalUtcTime("the end"),
    })
    .superRefine((input, ctx) => {
      if (input.endsAt && input.endsAt.getTime() <= now.getTime()) {
        ctx.addIssue({ code: "custom", path: ["endsAt"], message: "Choose an end still to come." });
      } else if (input.endsAt && input.startsAt && input.endsAt <= input.startsAt) {
        ctx.addIssue({ code: "custom", path: ["endsAt"], message: "Choose an end after the start." });
      }
    });

export type AnnouncementInput = z.infer<ReturnType<typeof announcementInput>>;
