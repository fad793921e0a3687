import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { readForm } from "~/lib/form.server";
import { asPageError, clientIp, isApiError } from "~/lib/http.server";
import { OFFLINE_COPY_HEADER } from "~/lib/offline-copy";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "./event-access.server";
import { runEventIntent } from "./event-page-actions.server";
import { formText } from "./event-page-form.server";
import type { EventFormReply } from "./event-page-view";
import { loadEventPage } from "./event-page.server";
import { openEventByUuid } from "./open-event.server";

// The loader and action of the event page (routes/e.$uuid.tsx). They live here, not in the route
// module, so that the browser's copy of the route imports one server module, whose empty stand-in
// then rides in the route's own chunk: each server module the browser's route modules import from
// more than one place becomes a chunk of its own, a request for a few empty bytes.

export async function eventPageLoader({ request, params }: LoaderFunctionArgs) {
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

/** One of the page's forms; a refused or invalid one answers the same page with the form's errors and values. */
export async function eventPageAction({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = formText(form, "intent");
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") values[key] = value;
  try {
    const { event, viewer } = await openEventByUuid(await getUser(request), params.uuid, keysFromUrl(new URL(request.url)));
    const outcome = await runEventIntent({ event, viewer, form }, intent);
    if ("reply" in outcome) return json<EventFormReply>(outcome.reply);
    const to = `/e/${event.uuid}${outcome.section ? `#${outcome.section}` : ""}`;
    return redirectWithCookies(to, [await toastHeader(outcome.toast)]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return json<EventFormReply>({ intent, formError: error.message, errors: error.fields, values }, { status: error.status });
  }
}
