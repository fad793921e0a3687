import type { Keepsakes } from "~/services/commerce/keepsakes-view";

type Offer = NonNullable<Keepsakes["guestbook"]>;

/**
 * A keepsake's link: its download once the Chorus has the add-on, else the cart where it is added.
 * A plain link, so it works without JavaScript; the download starts where the browser saves files.
 */
function KeepsakeLink({ offer, download, add }: { offer: Offer; download: string; add: string }) {
  if (offer.bought) {
    return (
      <a className="button" href={offer.href} download>
        {download}
      </a>
    );
  }
  return (
    <a className="button button--secondary" href={offer.href}>
      {add}
    </a>
  );
}

/** Every original, as it was sent: the download, or the add-on in the cart. */
export function OriginalsLink({ offer }: { offer: Offer }) {
  return <KeepsakeLink offer={offer} download="Download every original (zip)" add="Add every original to your Chorus" />;
}

/** The guestbook as a printable PDF: the download, or the add-on in the cart. */
export function GuestbookBookLink({ offer }: { offer: Offer }) {
  return <KeepsakeLink offer={offer} download="Download the guestbook (PDF)" add="Add the guestbook keepsake to your Chorus" />;
}

/** What the originals add-on is, and its download or cart link. */
export function OriginalsOffer({ offer }: { offer: Offer }) {
  return (
    <>
      <p>
        {offer.bought
          ? "Every photo and clip exactly as it was sent, at full size, in one zip."
          : "Keep every photo and clip exactly as it was sent, at full size, in one zip."}
      </p>
      <p>
        <OriginalsLink offer={offer} />
      </p>
    </>
  );
}

/** The originals as a section of its own, for the arrange page (the event page folds it). */
export function OriginalsSection({ offer }: { offer: Offer }) {
  return (
    <section className="card event-section" id="originals" aria-labelledby="originals-heading">
      <h2 id="originals-heading">Every original</h2>
      <OriginalsOffer offer={offer} />
    </section>
  );
}
