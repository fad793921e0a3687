import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, clientIp, ok, parseBody } from "~/lib/http.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { countAttempt } from "~/services/accounts/rate-limit.server";
import { stockPhotos } from "~/services/media/stock-photos.server";

const input = z.object({
  search: z.string().trim().max(100, "Keep the search under 100 characters.").optional().default(""),
  page: z.coerce.number().int().min(1).max(100).optional().default(1),
});

/** POST /api/v2/unsplash-search {search, page}: stock photos for organisers. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    await requireApiUser(request);
    await countAttempt(`stock-search:${clientIp(request)}`, 120);
    const { search, page } = await parseBody(request, input);
    return ok(await stockPhotos().search(search, page, 20));
  },
});
