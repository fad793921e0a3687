import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { chipInInput, startGiftContribution } from "~/services/gift-cards/contributions.server";
import { rememberCheckout } from "~/services/payments/checkout-cookie.server";

const contributionInput = chipInInput.extend({ eventUuid: z.uuid({ error: "Give the id of the Chorus." }) });

/**
 * POST /api/v2/tremendous/contributions `{eventUuid, name, email, amount}` (spec §7.2): starts a
 * contribution to the Chorus's group gift card, `{id, url}`: the payment page to send the contributor
 * to. The amount is in the card's currency; the payment webhook records it once paid.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { eventUuid, ...fields } = await parseBody(request, contributionInput);
    // The recipient's own link (privateKey) and view-only links cannot chip in.
    const { sessionId, ...started } = await startGiftContribution(
      await getUser(request),
      eventUuid,
      fields,
      keysFromUrl(new URL(request.url)),
    );
    // The browser that opened the payment page is the one its return page answers (checkout-payer.server.ts).
    return ok(started, { headers: { "Set-Cookie": await rememberCheckout(request, sessionId) } });
  },
});
