import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { trackStockDownload } from "~/services/media/stock-photos.server";

const input = z.object({ downloadLocation: z.string({ error: "Give the photo's download link." }).trim().min(1).max(500) });

/** POST /api/v2/unsplash-track {downloadLocation}: tells the provider a photo was picked (its guidelines ask it). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    await requireApiUser(request);
    const { downloadLocation } = await parseBody(request, input);
    await trackStockDownload(downloadLocation);
    return ok({ tracked: true });
  },
});
