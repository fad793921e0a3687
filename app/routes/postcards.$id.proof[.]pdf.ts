import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadResponse } from "~/lib/file-response.server";
import { apiResource } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { postcardSides } from "~/services/postcards/postcard-art.server";
import { sidesPdf } from "~/services/postcards/postcard-render.server";
import { managedPostcard, postcardArt } from "~/services/postcards/postcards.server";

/** GET /postcards/{id}/proof.pdf: the front and back at print size, the address where the post will print it. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const { postcard, event } = await managedPostcard(await getUser(request), params.id);
    const { front, back } = postcardSides(await postcardArt(postcard, event), { proof: true });
    return downloadResponse(sidesPdf([front, back], "Postcard proof"), {
      fileName: `postcard-${postcard.id}-proof.pdf`,
      contentType: "application/pdf",
    });
  },
});
