import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { MusicPanel } from "~/components/arrange/music-panel";
import { PreviewPanel } from "~/components/arrange/preview-panel";
import { RenderPanel } from "~/components/arrange/render-panel";
import { ThemePanel } from "~/components/arrange/theme-panel";
import { FormMessages } from "~/components/ui/field";
import { PRODUCT_NAME } from "~/domain/product";
import { loadArrangePage, runArrangeIntent } from "~/services/arrange/page.server";
import { asPageError, type EventFormReply } from "~/services/events/event-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Make the video — ${data.page.event.headline} — ${PRODUCT_NAME}` : PRODUCT_NAME },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return json({ page: await loadArrangePage(request, params.uuid) }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    throw asPageError(error);
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  return runArrangeIntent(request, params.uuid);
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
          <span aria-hidden="true">{page.event.emoji}</span> {page.event.headline}
        </p>
      </header>
      {reply && !reply.ok ? <FormMessages formError={reply.formError} /> : null}
      <PreviewPanel data={page.preview} eventUuid={uuid} />
      <ThemePanel data={page.theme} eventUuid={uuid} />
      <MusicPanel data={page.music} eventUuid={uuid} />
      <RenderPanel data={page.render} eventUuid={uuid} />
    </div>
  );
}
