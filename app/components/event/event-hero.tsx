import type { ReactNode } from "react";

/** The top of the pages people outside the organisation see: the occasion's emoji, an optional greeting, the headline and one line under it. */
export function EventHero({
  emoji,
  greeting,
  headline,
  children,
}: {
  emoji: string;
  greeting?: string | null;
  headline: string;
  children: ReactNode;
}) {
  return (
    <header className="event-hero">
      <p className="event-hero__emoji" aria-hidden="true">
        {emoji}
      </p>
      {greeting ? <p className="event-hero__greeting">{greeting}</p> : null}
      <h1>{headline}</h1>
      <p className="event-hero__deadline">{children}</p>
    </header>
  );
}
