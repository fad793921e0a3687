import { formatShortDay } from "~/domain/event-dates";

export interface GuestbookMessage {
  id: string;
  name: string;
  message: string;
  createdAt: string;
}

/** The messages a guestbook collected, oldest first. */
export function EventGuestbook({ messages, timeZone }: { messages: GuestbookMessage[]; timeZone: string }) {
  if (!messages.length) return null;
  return (
    <section className="card event-section" aria-labelledby="guestbook-heading">
      <h2 id="guestbook-heading">{`Guestbook messages (${messages.length})`}</h2>
      <ul className="guestbook-list">
        {messages.map((m) => (
          <li key={m.id}>
            <p className="guestbook-list__message">{m.message}</p>
            <p className="field-hint">
              — {m.name}, {formatShortDay(m.createdAt, timeZone)}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
