import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser, requireApiUser } from "~/services/accounts/current-user.server";
import { archiveTheme, findVisibleTheme, themeView, updateTheme } from "~/services/arrange/themes.server";
import { queuePiecePreparationOfTheme } from "~/services/render/piece-preparation.server";

/** GET, PUT and DELETE /api/v2/themes/{id}: anyone sees public themes; owners change and delete their own. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async GET({ request, params }) {
    const id = uuidParam(params.id, "theme");
    return ok(themeView(await findVisibleTheme(await getUser(request), id)));
  },
  async PUT({ request, params }) {
    const user = await requireApiUser(request);
    const theme = await updateTheme(user, uuidParam(params.id, "theme"), await readBody(request));
    // The videos in this theme are rendered ahead again in its new look.
    await queuePiecePreparationOfTheme(theme.id);
    return ok(themeView(theme));
  },
  async DELETE({ request, params }) {
    const user = await requireApiUser(request);
    const theme = await archiveTheme(user, uuidParam(params.id, "theme"));
    await queuePiecePreparationOfTheme(theme.id);
    return ok(themeView(theme));
  },
});
