import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { scheduleDelivery } from "~/services/events/event-delivery.server";
import { requireManager } from "~/services/events/events.server";

const deliverInput = z.object({ at: z.coerce.date({ error: "Give a valid date and time." }).nullable().optional() });

/** POST /api/v2/events/{id}/deliver: send the recipient their private link now, or at `at`. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const { event } = await requireManager(await getUser(request), uuidParam(params.id, "Chorus"));
    const { at } = await parseBody(request, deliverInput);
    const { scheduledFor, waitsForStream } = await scheduleDelivery(event, at ?? null);
    // waitsForStream: a video published moments ago goes out once it can stream (its ladder).
    return ok({ scheduledFor: scheduledFor?.toISOString() ?? null, waitsForStream });
  },
});
