import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { rememberCheckout } from "~/services/payments/checkout-cookie.server";
import { plantTreesInput, startTreeContribution } from "~/services/trees/tree-contributions.server";

const contributionInput = plantTreesInput.extend({ eventUuid: z.uuid({ error: "Give the id of the Chorus." }) });

/**
 * POST /api/v2/tree/contributions `{eventUuid, name, email, quantity}` (spec §7.2): starts a payment
 * for 1 to 100 trees planted in the recipient's honour; answers `{id, quantity, amount, currency, url}`,
 * the payment page to send the contributor to. The payment webhook records it and queues the planting.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { eventUuid, ...fields } = await parseBody(request, contributionInput);
    // The recipient's own link (privateKey) and view-only links cannot plant.
    const { sessionId, ...started } = await startTreeContribution(
      await getUser(request),
      eventUuid,
      fields,
      keysFromUrl(new URL(request.url)),
    );
    // The browser that opened the payment page is the one its return page answers (checkout-payer.server.ts).
    return ok(started, { headers: { "Set-Cookie": await rememberCheckout(request, sessionId) } });
  },
});
