import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadResponse } from "~/lib/file-response.server";
import { apiResource } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { GUESTBOOK_BOOK, requireKeepsake } from "~/services/commerce/keepsakes.server";
import { guestbookBookOf } from "~/services/events/guestbook-book.server";

/** GET /e/{uuid}/guestbook.pdf: every guestbook message as a printable PDF, for a Chorus with the add-on (402 before, 404 for others). */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const event = await requireKeepsake(await getUser(request), params.uuid, GUESTBOOK_BOOK);
    const { fileName, body } = await guestbookBookOf(event);
    return downloadResponse(body, { fileName, contentType: "application/pdf" });
  },
});
