import { json, type ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/lib/form.server";
import { isApiError } from "~/lib/http.server";
import { multipartPostOf } from "~/lib/multipart.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { openArrangement, type ArrangeOutcome } from "~/services/arrange/context.server";
import { trackUploaded } from "~/services/arrange/music-panel.server";
import { runArrangeIntent } from "~/services/arrange/page.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { formText } from "~/services/events/event-page-form.server";
import { receiveTrackUpload } from "~/services/uploads/track-upload.server";
import type { ArrangePageReply } from "./view";

/** A plain-form action of the page; a refused or invalid one answers the page with the reason. */
export async function action({ request, params }: ActionFunctionArgs) {
  // The upload form is the page's only multipart one, so it needs no intent to be told apart; its
  // file is streamed to disk like POST /api/v2/tracks, never read into memory first.
  const multipart = (request.headers.get("content-type") ?? "").includes("multipart/form-data");
  const form = multipart ? null : await readForm(request);
  const intent = form ? formText(form, "intent") : "music-upload";
  try {
    const context = await openArrangement(await getUser(request), params.uuid, keysFromUrl(new URL(request.url)));
    const outcome = form
      ? await runArrangeIntent(context, intent, form)
      : trackUploaded(await receiveTrackUpload(multipartPostOf(request), context.user));
    return await answer(context.event.uuid, outcome);
  } catch (error) {
    if (isApiError(error)) {
      return json<ArrangePageReply>(
        { intent, formError: error.message, errors: error.fields },
        { status: error.status, headers: error.headers },
      );
    }
    throw error;
  }
}

async function answer(uuid: string, outcome: ArrangeOutcome) {
  if ("reply" in outcome) return json<ArrangePageReply>(outcome.reply, { status: outcome.status });
  return redirectWithCookies(`/e/${uuid}/arrange#${outcome.section}`, [await toastHeader(outcome.toast)]);
}
