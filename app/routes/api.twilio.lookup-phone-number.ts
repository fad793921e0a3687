import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parsePhone } from "~/domain/phone";
import { env } from "~/lib/env.server";
import { apiResource, badRequest, clientIp, ok, parseBody } from "~/lib/http.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { countAttempt } from "~/services/accounts/rate-limit.server";
import { phoneLookupProvider } from "~/services/messaging/sms.server";

const input = z.object({
  phoneNumber: z
    .string({ error: "Enter a phone number." })
    .trim()
    .min(1, "Enter a phone number.")
    .max(32, "That phone number is too long."),
  country: z.string().trim().length(2, "Use a two-letter country code.").optional(),
});

/** POST /api/twilio/lookup-phone-number: is this a real (mobile) number? Twilio when configured. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    await requireApiUser(request);
    await countAttempt(`lookup-phone:${clientIp(request)}`, 60);
    const { phoneNumber, country } = await parseBody(request, input);
    const parsed = parsePhone(phoneNumber, country ?? env().DEFAULT_PHONE_COUNTRY);
    if (!parsed) throw badRequest("That is not a valid phone number.", { phoneNumber: "That is not a valid phone number." });
    return ok(await phoneLookupProvider().lookup(parsed.e164));
  },
});
