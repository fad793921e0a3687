import { Link } from "@remix-run/react";
import { ContributorOfferCard } from "~/components/commerce/contributor-offer";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import { PRODUCT_NAME, START_PATH } from "~/domain/product";
import type { PageOf } from "~/services/events/event-page-view";
import { EventThankYouVideo } from "./event-thank-you-video";

/** A Chorus that no longer collects, for someone without a key: nothing private, just where it stands. */
export function EventPublicView({ page }: { page: PageOf<"public"> }) {
  return (
    <div className="event-page--narrow stack">
      <div className="card empty-state">
        <p className="empty-state__icon">
          <OccasionIcon type={page.occasion.type} />
        </p>
        <h1>{page.headline}</h1>
        <p>This {PRODUCT_NAME} is no longer collecting contributions.</p>
        <Link className="button button--secondary" to={START_PATH}>
          Start your own {PRODUCT_NAME}
        </Link>
      </div>
      <EventThankYouVideo video={page.thankYou} from={page.thankYouFrom} />
      {page.offer ? <ContributorOfferCard offer={page.offer} /> : null}
    </div>
  );
}
