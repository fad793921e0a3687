import type { ActionFunctionArgs } from "@remix-run/node";
import { getUser, requireApiUser } from "~/lib/auth.server";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { archiveTheme, findVisibleTheme, themeView, updateTheme } from "~/services/arrange/themes.server";

/** GET, PUT and DELETE /api/v2/themes/{id}: anyone sees public themes; owners change and delete their own. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async GET({ request, params }) {
    const id = uuidParam(params.id, "theme");
    return ok(themeView(await findVisibleTheme(await getUser(request), id)));
  },
  async PUT({ request, params }) {
    const user = await requireApiUser(request);
    return ok(themeView(await updateTheme(user, uuidParam(params.id, "theme"), await readBody(request))));
  },
  async DELETE({ request, params }) {
    const user = await requireApiUser(request);
    return ok(themeView(await archiveTheme(user, uuidParam(params.id, "theme"))));
  },
});
