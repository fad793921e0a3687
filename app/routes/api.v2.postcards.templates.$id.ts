import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { postcardTemplateView } from "~/services/postcards/postcards.server";

/** GET /api/v2/postcards/templates/{id} (spec §7.2): one postcard template; 404 for an unknown one. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ params }) {
    return ok(postcardTemplateView(params.id));
  },
});
