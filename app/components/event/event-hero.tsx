import type { ReactNode } from "react";
import { OccasionIcon } from "~/components/ui/occasion-icon";

/** The top of the pages people outside the organisation see: the occasion's picture, an optional greeting, the headline and one line under it. */
export function EventHero({
  occasion,
  greeting,
  headline,
  children,
}: {
  /** The occasion's type, for its picture. */
  occasion: string;
  greeting?: string | null;
  headline: string;
  children: ReactNode;
}) {
  return (
    <header className="event-hero">
      <p className="event-hero__emoji">
        <OccasionIcon type={occasion} size={56} />
      </p>
      {greeting ? <p className="event-hero__greeting">{greeting}</p> : null}
      <h1>{headline}</h1>
      <p className="event-hero__deadline">{children}</p>
    </header>
  );
}
