import { z } from "zod";
import { parsePhone } from "./phone";

/** An invitee as the organiser types them: a name and at least one way to reach them (spec §7.2 RSVPs). */
export const inviteeInput = (defaultCountry: string) =>
  z
    .object({
      name: z.string({ error: "Enter their name." }).trim().min(1, "Enter their name.").max(80, "Use at most 80 characters."),
      email: z
        .string()
        .trim()
        .max(254, "That e-mail address is too long.")
        .optional()
        .transform((v) => (v ? v.toLowerCase() : null))
        .pipe(z.email("Enter a valid e-mail address.").nullable()),
      phone: z
        .string()
        .trim()
        .max(32, "That phone number is too long.")
        .optional()
        .transform((v, ctx) => {
          if (!v) return null;
          const parsed = parsePhone(v, defaultCountry);
          if (!parsed) {
            ctx.addIssue({ code: "custom", message: "Enter a valid phone number, with the country code if it is abroad." });
            return z.NEVER;
          }
          return parsed.e164;
        }),
      viaEmail: z.boolean().optional(),
      viaSms: z.boolean().optional(),
    })
    .transform((v) => ({ ...v, viaEmail: v.viaEmail ?? !!v.email, viaSms: v.viaSms ?? (!v.email && !!v.phone) }))
    .superRefine((v, ctx) => {
      if (!v.email && !v.phone) ctx.addIssue({ code: "custom", path: ["email"], message: "Add an e-mail address or a mobile number." });
      if (v.viaEmail && !v.email) ctx.addIssue({ code: "custom", path: ["email"], message: "Add an e-mail address to invite by e-mail." });
      if (v.viaSms && !v.phone) ctx.addIssue({ code: "custom", path: ["phone"], message: "Add a mobile number to invite by text." });
      if (!v.viaEmail && !v.viaSms) ctx.addIssue({ code: "custom", path: ["viaEmail"], message: "Choose e-mail, text message or both." });
    });

export type InviteeInput = z.infer<ReturnType<typeof inviteeInput>>;
