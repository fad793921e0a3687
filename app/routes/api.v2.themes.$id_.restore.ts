import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { restoreTheme, themeView } from "~/services/arrange/themes.server";
import { queuePiecePreparationOfTheme } from "~/services/render/piece-preparation.server";

/** POST /api/v2/themes/{id}/restore: the owner brings back a theme they deleted (spec §4). */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const user = await requireApiUser(request);
    const theme = await restoreTheme(user, uuidParam(params.id, "theme"));
    await queuePiecePreparationOfTheme(theme.id);
    return ok(themeView(theme));
  },
});
