import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseWith } from "~/lib/http.server";
import { requireApiUser, getUser } from "~/services/accounts/current-user.server";
import { promoCartOf } from "~/services/commerce/cart-views.server";
import { checkPromoCode } from "~/services/commerce/promo-codes.server";
import { requireManager } from "~/services/events/events.server";

const checkInput = z.object({
  code: z.string().trim().min(1, "Type a code.").max(64, "Codes are shorter than that."),
  eventId: z.uuid({ error: "Give the id of one of your Choruses." }).optional(),
});

/** GET /api/v2/promo-codes/check/{code}[?eventId=]: does it apply, and what does it take off (that Chorus's cart)? */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const user = await requireApiUser(request);
    const { code, eventId } = parseWith(checkInput, {
      code: params.code,
      eventId: new URL(request.url).searchParams.get("eventId") || undefined,
    });
    if (!eventId) return ok(await checkPromoCode(user, code, null));
    const { event } = await requireManager(await getUser(request), eventId);
    const { buyer, cart } = await promoCartOf(event);
    return ok(await checkPromoCode(buyer, code, cart));
  },
});
