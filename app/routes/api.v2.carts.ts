import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { openCartOf } from "~/services/commerce/carts.server";
import { requireManager } from "~/services/events/events.server";

const cartInput = z.object({ eventId: z.uuid({ error: "Give the id of one of your Choruses." }) });

/** POST /api/v2/carts {eventId}: the event's cart, made on first ask (organiser only). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const { eventId } = await parseBody(request, cartInput);
    const { event } = await requireManager(await getUser(request), eventId);
    return ok(await openCartOf(event));
  },
});
