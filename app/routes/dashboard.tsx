import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { Event, Recipient } from "drizzle/schema";
import { EventSummaryCard, type EventSummary } from "~/components/event/event-summary-card";
import { PageError } from "~/components/shell/page-error";
import { FilmIcon } from "~/components/ui/icons";
import { formatDeadlineDay } from "~/domain/event-dates";
import { eventStatusOf } from "~/domain/event-status";
import { DASHBOARD_TITLE, PRODUCT_NAME, PRODUCT_PLURAL, START_PATH } from "~/domain/product";
import { formatRecipientNames } from "~/domain/recipient-names";
import { hasStartedDraft } from "~/domain/start-draft";
import { db } from "~/lib/db.server";
import { listEventsContributedBy, listEventsOfCreator, listRecipientsOf } from "~/models/event.server";
import { requireUser } from "~/services/accounts/current-user.server";
import { headlineOf, publicEventView } from "~/services/events/event-views.server";
import { loadStartDraft } from "~/services/events/start-draft-session.server";

export const meta: MetaFunction = () => [{ title: `${DASHBOARD_TITLE} — ${PRODUCT_NAME}` }];

function summaryOf(event: Event, recipients: Recipient[], contributions: number, now: Date): EventSummary {
  const { type, label } = publicEventView(event, recipients).occasion;
  return {
    uuid: event.uuid,
    headline: headlineOf(event, recipients),
    occasion: { type, label },
    status: eventStatusOf(event, now),
    deadline: { day: formatDeadlineDay(event.deadline, event.timeZone), iso: event.deadline.toISOString() },
    contributions,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [started, contributed, { draft }] = await Promise.all([
    listEventsOfCreator(db(), user.id),
    listEventsContributedBy(db(), user),
    loadStartDraft(request),
  ]);
  const recipients = await listRecipientsOf(
    db(),
    [...started, ...contributed].map((row) => row.event.id),
  );
  const recipientsOf = (eventId: string) => recipients.filter((r) => r.eventId === eventId);
  const now = new Date();
  const newestFirst = (a: { event: Event }, b: { event: Event }) => b.event.createdAt.getTime() - a.event.createdAt.getTime();
  return json({
    started: started.map((row) => ({
      ...summaryOf(row.event, recipientsOf(row.event.id), row.contributions, now),
      invitees: row.invitees,
    })),
    contributed: [...contributed].sort(newestFirst).map((row) => summaryOf(row.event, recipientsOf(row.event.id), row.contributions, now)),
    // A draft left before logging in or confirming an e-mail address is offered back here.
    draftFor: hasStartedDraft(draft) ? formatRecipientNames(draft.recipients, { firstNamesOnly: true }) : null,
  });
}

function EventList({ events }: { events: EventSummary[] }) {
  return (
    <ul className="event-list">
      {events.map((event) => (
        <li key={event.uuid}>
          <EventSummaryCard event={event} />
        </li>
      ))}
    </ul>
  );
}

export default function DashboardPage() {
  const { started, contributed, draftFor } = useLoaderData<typeof loader>();
  return (
    <div className="dashboard">
      <div className="page-head">
        <h1>{DASHBOARD_TITLE}</h1>
        <Link className="button" to={START_PATH}>
          {`Start a ${PRODUCT_NAME}`}
        </Link>
      </div>

      {draftFor ? (
        <aside className="draft-banner" aria-label="Unfinished draft">
          <p>
            <strong>{`You were starting a ${PRODUCT_NAME}`}</strong> {`for ${draftFor}. Everything you entered is saved.`}
          </p>
          <Link className="button button--secondary" to={`${START_PATH}?step=review`}>
            Continue
          </Link>
        </aside>
      ) : null}

      <section className="dashboard__section" aria-labelledby="started-heading">
        <h2 id="started-heading">
          {`${PRODUCT_PLURAL} I started`} {started.length ? <span className="dashboard__count">{started.length}</span> : null}
        </h2>
        {started.length ? (
          <EventList events={started} />
        ) : (
          <div className="card empty-state">
            <p className="empty-state__icon">
              <FilmIcon size={40} strokeWidth={1.5} />
            </p>
            <h3>{`You haven't started a ${PRODUCT_NAME} yet`}</h3>
            <p>Pick an occasion, invite friends and family, and we'll turn their clips into one video gift.</p>
            <Link className="button" to={START_PATH}>
              {`Start a ${PRODUCT_NAME}`}
            </Link>
          </div>
        )}
      </section>

      <section className="dashboard__section" aria-labelledby="contributed-heading">
        <h2 id="contributed-heading">
          {`${PRODUCT_PLURAL} I contributed to`}{" "}
          {contributed.length ? <span className="dashboard__count">{contributed.length}</span> : null}
        </h2>
        {contributed.length ? (
          <EventList events={contributed} />
        ) : (
          <p className="empty-note">{`Nothing yet. When someone invites you to add a clip, that ${PRODUCT_NAME} shows up here.`}</p>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
