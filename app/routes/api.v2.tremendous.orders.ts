import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManager } from "~/services/events/events.server";
import { orderGiftNow } from "~/services/gift-cards/payout.server";

const orderInput = z.object({ eventId: z.uuid({ error: "Give the id of the Chorus." }) });

/**
 * POST /api/v2/tremendous/orders `{eventId}` (spec §7.2): the organiser or staff sends the Chorus's
 * gift card once the Chorus is delivered (409 before). Answers the gift; the order is placed by a job.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { eventId } = await parseBody(request, orderInput);
    const { event } = await requireManager(await getUser(request), eventId);
    return ok(await orderGiftNow(event));
  },
});
