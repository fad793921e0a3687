import { Link } from "@remix-run/react";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import type { EventStatusKind } from "~/domain/event-status";

export interface EventSummary {
  uuid: string;
  headline: string;
  occasion: { type: string; label: string };
  status: { kind: EventStatusKind; label: string };
  /** "Fri 4 Dec 2026", in the event's time zone, and the instant for <time>. */
  deadline: { day: string; iso: string };
  contributions: number;
  /** Only for the organiser. */
  invitees?: number;
}

const contributionsText = (n: number) => (n === 0 ? "No contributions yet" : n === 1 ? "1 contribution" : `${n} contributions`);
const inviteesText = (n: number) => (n === 0 ? "No one invited yet" : n === 1 ? "1 person invited" : `${n} people invited`);

/** One Chorus in a list: what it is, where it stands, and a link to its page. */
export function EventSummaryCard({ event }: { event: EventSummary }) {
  return (
    <article className="event-card">
      <span className="event-card__emoji">
        <OccasionIcon type={event.occasion.type} size={40} />
      </span>
      <div className="event-card__body">
        <p className="event-card__occasion">{event.occasion.label}</p>
        <h3 className="event-card__title">
          <Link to={`/e/${event.uuid}`}>{event.headline}</Link>
        </h3>
        <p className="event-card__meta">
          <span className={`status status--${event.status.kind}`}>{event.status.label}</span>
          <span>
            Deadline <time dateTime={event.deadline.iso}>{event.deadline.day}</time>
          </span>
        </p>
        <ul className="event-card__counts">
          <li>{contributionsText(event.contributions)}</li>
          {event.invitees !== undefined ? <li>{inviteesText(event.invitees)}</li> : null}
        </ul>
      </div>
    </article>
  );
}
