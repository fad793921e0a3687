import { json, type ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/lib/form.server";
import { isApiError } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { runEventIntent } from "~/services/events/event-page-actions.server";
import { formText } from "~/services/events/event-page-form.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import type { EventPageReply } from "./view";

/** One of the page's forms; a refused or invalid one answers the same page with the form's errors and values. */
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = formText(form, "intent");
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") values[key] = value;
  try {
    const { event, viewer } = await openEventByUuid(await getUser(request), params.uuid, keysFromUrl(new URL(request.url)));
    const outcome = await runEventIntent({ event, viewer, form }, intent);
    if ("reply" in outcome) return json<EventPageReply>(outcome.reply);
    const to = `/e/${event.uuid}${outcome.section ? `#${outcome.section}` : ""}`;
    return redirectWithCookies(to, [await toastHeader(outcome.toast)]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return json<EventPageReply>({ intent, formError: error.message, errors: error.fields, values }, { status: error.status });
  }
}
