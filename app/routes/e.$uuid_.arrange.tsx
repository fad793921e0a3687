import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { MusicPanel } from "~/components/arrange/music-panel";
import { PreviewPanel } from "~/components/arrange/preview-panel";
import { RenderPanel } from "~/components/arrange/render-panel";
import { ThemePanel } from "~/components/arrange/theme-panel";
import { OriginalsSection } from "~/components/commerce/keepsake-links";
import { FormMessages } from "~/components/ui/field";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import { PRODUCT_NAME } from "~/domain/product";
import { readForm } from "~/lib/form.server";
import { asPageError, isApiError } from "~/lib/http.server";
import { multipartPostOf } from "~/lib/multipart.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { openArrangement, type ArrangeOutcome } from "~/services/arrange/context.server";
import { trackUploaded } from "~/services/arrange/music-panel.server";
import { loadArrangePage, runArrangeIntent } from "~/services/arrange/page.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { formText } from "~/services/events/event-page-form.server";
import type { EventFormReply } from "~/services/events/event-page-view";
import { receiveTrackUpload } from "~/services/uploads/track-upload.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Make the video — ${data.page.event.headline} — ${PRODUCT_NAME}` : PRODUCT_NAME },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const context = await openArrangement(await getUser(request), params.uuid, keysFromUrl(new URL(request.url)));
    return json({ page: await loadArrangePage(context) }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    throw asPageError(error);
  }
}

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
      return json<EventFormReply>(
        { intent, formError: error.message, errors: error.fields },
        { status: error.status, headers: error.headers },
      );
    }
    throw error;
  }
}

async function answer(uuid: string, outcome: ArrangeOutcome) {
  if ("reply" in outcome) return json<EventFormReply>(outcome.reply, { status: outcome.status });
  return redirectWithCookies(`/e/${uuid}/arrange#${outcome.section}`, [await toastHeader(outcome.toast)]);
}

/** The organiser's studio: pick a look and music, watch the arrangement, render and publish. */
export default function ArrangePage() {
  const { page } = useLoaderData<typeof loader>();
  const reply = useActionData<EventFormReply>();
  const uuid = page.event.uuid;
  return (
    <div className="arrange-page stack">
      <header className="event-head">
        <p>
          <Link to={`/e/${uuid}`}>← Back to the Chorus</Link>
        </p>
        <h1>Make the video</h1>
        <p className="muted">
          <OccasionIcon type={page.event.occasion} size={28} className="occasion-icon--inline" /> {page.event.headline}
        </p>
      </header>
      {reply && !reply.ok ? <FormMessages formError={reply.formError} /> : null}
      <PreviewPanel data={page.preview} eventUuid={uuid} />
      <ThemePanel data={page.theme} eventUuid={uuid} />
      <MusicPanel data={page.music} eventUuid={uuid} />
      <RenderPanel data={page.render} eventUuid={uuid} />
      <OriginalsSection offer={page.originals} />
    </div>
  );
}
