import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { asPageError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { openArrangement } from "~/services/arrange/context.server";
import { loadArrangePage } from "~/services/arrange/page.server";
import { keysFromUrl } from "~/services/events/event-access.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const context = await openArrangement(await getUser(request), params.uuid, keysFromUrl(new URL(request.url)));
    return json({ page: await loadArrangePage(context) }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    throw asPageError(error);
  }
}
