import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { MusicPanel } from "~/components/arrange/music-panel";
import { PreviewPanel } from "~/components/arrange/preview-panel";
import { RenderPanel } from "~/components/arrange/render-panel";
import { ThemePanel } from "~/components/arrange/theme-panel";
import { OriginalsSection } from "~/components/commerce/keepsake-links";
import { chorusPageRefusals } from "~/components/event/chorus-page-refusals";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import { DASHBOARD_TITLE, PRODUCT_NAME } from "~/domain/product";
import { action } from "./action.server";
import { loader } from "./loader.server";
import type { ArrangePageReply } from "./view";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Make the video — ${data.page.event.headline} — ${PRODUCT_NAME}` : PRODUCT_NAME },
  { name: "robots", content: "noindex" },
];

export { action, loader };

/** The organiser's studio: pick a look and music, watch the arrangement, render and publish. */
export default function ArrangePage() {
  const { page } = useLoaderData<typeof loader>();
  const reply = useActionData<ArrangePageReply>();
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

export function ErrorBoundary() {
  return (
    <PageError
      words={chorusPageRefusals(`Only the organiser of a ${PRODUCT_NAME} makes its video.`)}
      back={{ to: "/dashboard", label: DASHBOARD_TITLE }}
    />
  );
}
