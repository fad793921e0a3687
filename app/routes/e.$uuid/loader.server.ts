import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { asPageError, clientIp } from "~/lib/http.server";
import { OFFLINE_COPY_HEADER } from "~/lib/offline-copy";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { loadEventPage } from "~/services/events/event-page.server";

// The loader and the action sit in modules of their own beside the route, each imported by the
// route alone: in the browser's build their empty stand-ins then ride in the route's own chunk. A
// server module that the browser's route modules import from more than one place becomes a chunk of
// its own, a request for a few empty bytes (bench/README.md).

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const url = new URL(request.url);
    const search = url.searchParams;
    const user = await getUser(request);
    const page = await loadEventPage(user, params.uuid, {
      keys: keysFromUrl(url),
      // The stock photo picker's search, when the address asks for one (?stock=…&stockPage=…).
      stockSearch: search.has("stock") ? { stock: search.get("stock") ?? "", stockPage: search.get("stockPage") ?? undefined } : null,
      clientIp: clientIp(request),
      giftCountry: search.get("giftCountry"),
    });
    const headers = new Headers({ "Cache-Control": "private, no-store" });
    // Only a contributor's page seen without a log-in may be kept on the phone for offline use (public/sw.js).
    if (page.page.kind === "contributor" && !user) headers.set(OFFLINE_COPY_HEADER, "contributor");
    return json(page, { headers });
  } catch (error) {
    throw asPageError(error);
  }
}
