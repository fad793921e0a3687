import type { ComponentProps } from "react";
import { GuestbookBookLink } from "~/components/commerce/keepsake-links";
import { formatShortDay } from "~/domain/event-dates";

export interface GuestbookMessage {
  id: string;
  name: string;
  message: string;
  createdAt: string;
}

/**
 * The messages a guestbook collected, oldest first. For its organiser (`keepsake` given: a
 * guestbook Chorus), the section is there even before the first message, with the printable
 * keepsake's download or the add-on in the cart.
 */
export function EventGuestbook({
  messages,
  timeZone,
  keepsake = null,
}: {
  messages: GuestbookMessage[];
  timeZone: string;
  keepsake?: ComponentProps<typeof GuestbookBookLink>["offer"] | null;
}) {
  if (!messages.length && !keepsake) return null;
  return (
    <section className="card event-section" id="guestbook" aria-labelledby="guestbook-heading">
      <h2 id="guestbook-heading">{`Guestbook messages (${messages.length})`}</h2>
      {messages.length ? (
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
      ) : (
        <p>There are no messages yet. The keepsake shows every message as it arrives.</p>
      )}
      {keepsake ? (
        <p>
          <GuestbookBookLink offer={keepsake} />
        </p>
      ) : null}
    </section>
  );
}
