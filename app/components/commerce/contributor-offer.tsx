import { Link } from "@remix-run/react";
import { useEffect } from "react";
import { PRODUCT_NAME, START_PATH } from "~/domain/product";
import { keepContributorPromoCode } from "~/lib/browser/contributor-promo";

export interface ContributorOffer {
  code: string;
  description: string;
  expiresOn: string | null;
}

/** Thanks for contributing: a personal code for a Chorus of their own, which the browser keeps. */
export function ContributorOfferCard({ offer }: { offer: ContributorOffer }) {
  useEffect(() => keepContributorPromoCode(offer.code), [offer.code]);
  return (
    <section className="card event-section" aria-labelledby="offer-heading">
      <h2 id="offer-heading">Thank you for taking part</h2>
      <p>
        Here is <strong>{offer.description}</strong>, for any occasion. Use this code at checkout:
      </p>
      <p className="contributor-offer__code">
        <code>{offer.code}</code>
      </p>
      {offer.expiresOn ? <p className="field-hint">{`Valid until ${offer.expiresOn}, once.`}</p> : null}
      <Link className="button button--secondary" to={START_PATH}>
        Start your own {PRODUCT_NAME}
      </Link>
    </section>
  );
}
