import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, notFound } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { postcardSides } from "~/services/postcards/postcard-art.server";
import { sideSvg } from "~/services/postcards/postcard-render.server";
import { managedPostcard, postcardArt } from "~/services/postcards/postcards.server";

/** GET /postcards/{id}/preview/{front|back}.svg: one side of the card as it will be printed, for its organiser. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const side = params.side === "front.svg" ? "front" : params.side === "back.svg" ? "back" : null;
    if (!side) throw notFound();
    const { postcard, event } = await managedPostcard(await getUser(request), params.id);
    const sides = postcardSides(await postcardArt(postcard, event), { proof: true });
    return new Response(sideSvg(sides[side]), {
      headers: { "Content-Type": "image/svg+xml", "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" },
    });
  },
});
