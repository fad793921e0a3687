import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { getUser, requireApiUser } from "~/services/accounts/current-user.server";
import { createTheme, listThemes, themeView } from "~/services/arrange/themes.server";

const truthy = (value: string | null) => value === "1" || value === "true";

/**
 * GET /api/v2/themes[?archived=1]: the built-in themes, and the caller's own when logged in
 * (with their deleted ones when asked). POST {basedOn, name?, ...changes}: a copy of one to change.
 */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async GET({ request }) {
    const user = await getUser(request);
    const withArchived = truthy(new URL(request.url).searchParams.get("archived"));
    return ok((await listThemes(user, { withArchived })).map(themeView));
  },
  async POST({ request }) {
    const user = await requireApiUser(request);
    return ok(themeView(await createTheme(user, await readBody(request))), { status: 201 });
  },
});
