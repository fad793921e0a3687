import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, notFound } from "~/lib/http.server";
import { isSignedUrl } from "~/lib/media-url.server";
import { findEventById } from "~/models/event.server";
import { findPostcard } from "~/models/postcard.server";
import { postcardSides } from "~/services/postcards/postcard-art.server";
import { sidesPdf } from "~/services/postcards/postcard-render.server";
import { postcardArt } from "~/services/postcards/postcards.server";

/**
 * GET /postcards/{id}/print/{front|back}.pdf?exp&sig: a print file, for the print service, through the
 * signed link the send job handed it. Only a card that is paid for has print files.
 */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const side = params.side === "front.pdf" ? "front" : params.side === "back.pdf" ? "back" : null;
    if (!side || !isSignedUrl(new URL(request.url))) throw notFound();
    const postcard = params.id ? await findPostcard(db(), params.id).catch(() => null) : null;
    const event = postcard ? await findEventById(db(), postcard.eventId, { withDeleted: true }) : null;
    if (!postcard || !event || postcard.status === "draft" || postcard.status === "checkout") throw notFound();
    const sides = postcardSides(await postcardArt(postcard, event), { proof: false });
    return new Response(createReadableStreamFromReadable(sidesPdf([sides[side]], `Postcard ${side}`)), {
      headers: { "Content-Type": "application/pdf", "Cache-Control": "private, no-store" },
    });
  },
});
