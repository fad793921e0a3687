import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseWith } from "~/lib/http.server";
import { listCountries } from "~/services/commerce/countries.server";

const listInput = z.object({ sortBy: z.enum(["name", "code"], { error: "Sort by name or code." }).default("name") });

/** GET /api/v2/geo-countries?sortBy=name: every country (ISO 3166-1 alpha-2 and English name), for billing pickers. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    const { sortBy } = parseWith(listInput, { sortBy: new URL(request.url).searchParams.get("sortBy") ?? undefined });
    return ok(listCountries(sortBy), { headers: { "Cache-Control": "public, max-age=86400" } });
  },
});
