import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseWith } from "~/lib/http.server";
import { isCountryCode } from "~/services/commerce/countries.server";
import { listGiftCardProducts } from "~/services/gift-cards/catalogue.server";

const listInput = z.object({
  country: z
    .string({ error: "Choose the recipient's country." })
    .trim()
    .toUpperCase()
    .refine(isCountryCode, { error: "That is not a country we know (use a two-letter code, like US)." }),
});

/** GET /api/v2/tremendous/products?country=US: gift-card brands a recipient in that country can redeem (spec §7.2). */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    const { country } = parseWith(listInput, { country: new URL(request.url).searchParams.get("country") ?? undefined });
    return ok(await listGiftCardProducts(country));
  },
});
