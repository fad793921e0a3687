import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { lazy, Suspense } from "react";
import * as rendered from "~/components/event/event-views-ssr.server";
import { FormMessages } from "~/components/ui/field";
import { UnexpectedErrorCard } from "~/components/ui/unexpected-error";
import { PRODUCT_DESCRIPTION, PRODUCT_NAME, START_PATH } from "~/domain/product";
import { retryingImport } from "~/lib/browser/retrying-import";
import { OFFLINE_COPY_HEADER } from "~/lib/offline-copy";
import { eventPageAction, eventPageLoader } from "~/services/events/event-page-route.server";
import type { EventFormReply } from "~/services/events/event-page-view";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.page.headline} — ${PRODUCT_NAME}` : PRODUCT_NAME },
  { name: "description", content: data ? descriptionOf(data.page.kind) : PRODUCT_DESCRIPTION },
  // Event pages are reached by private links: never indexed.
  { name: "robots", content: "noindex" },
];

/** Nothing private: the description shows wherever the link is shared. */
function descriptionOf(kind: string) {
  if (kind === "contributor") return `Add your photos and clips to this group video gift: no app and no account needed.`;
  if (kind === "recipient") return `Your group video gift from the people who care about you.`;
  return `A group video gift made with ${PRODUCT_NAME}.`;
}

/**
 * Its HTML depends on its loaders' data alone: a visitor who is not signed in may be answered with
 * the page rendered before for exactly the same data (lib/rendered-pages.server.ts).
 */
export const handle = { keepRendered: true };

export const loader = eventPageLoader;

/**
 * The page says when the service worker may keep it (docs/decisions/027): a contributor's page
 * without a log-in, on an answer that sets no cookie (a toast shown once, a session renewed).
 */
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders }) => {
  const headers = new Headers();
  if (loaderHeaders.get(OFFLINE_COPY_HEADER) && !loaderHeaders.has("Set-Cookie") && !parentHeaders.has("Set-Cookie")) {
    headers.set(OFFLINE_COPY_HEADER, "contributor");
  }
  return headers;
};

/** One of the page's forms; a refused or invalid one answers the same page with the form's errors and values. */
export const action = eventPageAction;

/**
 * Each view of the page (the organiser's, the largest; the contributor's; the recipient's; the
 * public one) is rendered in full by the server, and loaded in the browser only for whoever sees it:
 * React hydrates it once its chunk arrives; until then it is the server's HTML, whose forms work as
 * they do without JavaScript (and a press on the contribution form is held, see
 * early-uploads.server.ts). A chunk cut off by the link is fetched again (retrying-import.ts): a
 * failed import would otherwise put the error page where the view was.
 */
const EventCreatorView =
  rendered.EventCreatorView ??
  lazy(() => retryingImport(() => import("~/components/event/event-creator-view")).then((m) => ({ default: m.EventCreatorView })));
const EventContributorView =
  rendered.EventContributorView ??
  lazy(() => retryingImport(() => import("~/components/event/event-contributor-view")).then((m) => ({ default: m.EventContributorView })));
const EventAudienceView =
  rendered.EventAudienceView ??
  lazy(() => retryingImport(() => import("~/components/event/event-audience-view")).then((m) => ({ default: m.EventAudienceView })));
const EventPublicView =
  rendered.EventPublicView ??
  lazy(() => retryingImport(() => import("~/components/event/event-public-view")).then((m) => ({ default: m.EventPublicView })));

export default function EventPage() {
  const { page, takenDown } = useLoaderData<typeof loader>();
  const reply = useActionData<EventFormReply>();
  // A refused action (someone who is not the organiser) has no form of its own on this view.
  const refused = reply && (reply.intent === "" || (page.kind !== "creator" && reply.intent !== "thank-you")) ? reply : undefined;
  return (
    <>
      {takenDown ? (
        <p className="form-error" role="status">
          Taken down: everyone but staff finds this {PRODUCT_NAME} unavailable. Why: {takenDown.reason}{" "}
          <a href="/admin/reports">Restore it from the reports queue.</a>
        </p>
      ) : null}
      {refused ? <FormMessages formError={refused.formError} /> : null}
      <Suspense
        fallback={
          <p className="card loading-note">
            Opening {page.kind === "creator" ? "your" : "this"} {PRODUCT_NAME}…
          </p>
        }
      >
        {page.kind === "creator" ? <EventCreatorView page={page} /> : null}
        {page.kind === "recipient" || page.kind === "view-only" ? <EventAudienceView page={page} /> : null}
        {page.kind === "contributor" ? <EventContributorView page={page} /> : null}
        {page.kind === "public" ? <EventPublicView page={page} /> : null}
      </Suspense>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 410) {
    // Taken down by staff after a report: the same page for the public, recipients and contributors.
    return (
      <div className="card empty-state">
        <h1>This {PRODUCT_NAME} is unavailable</h1>
        <p>It has been taken down and can no longer be viewed or added to.</p>
        <Link className="button" to={START_PATH}>
          Start your own {PRODUCT_NAME}
        </Link>
      </div>
    );
  }
  if (!isRouteErrorResponse(error) || error.status !== 404) {
    return <UnexpectedErrorCard error={error} />;
  }
  return (
    <div className="card empty-state">
      <h1>We couldn't find this {PRODUCT_NAME}</h1>
      <p>The link may be incomplete, or the organiser may have removed it. Ask them for a fresh link.</p>
      <Link className="button" to={START_PATH}>
        Start your own {PRODUCT_NAME}
      </Link>
    </div>
  );
}
