import { useParams } from "@remix-run/react";
import { formatMoney } from "~/domain/commerce/money";
import type { PageOf } from "~/services/events/event-page-view";
import { useLivePot } from "./live-pot";

// Its own module: contributors and the chip-in page draw the pot without the organiser's gift form.
type Gift = NonNullable<PageOf<"creator">["gift"]["gift"]>;

/** The pot so far, against the target if there is one. */
export function GiftPot({ gift }: { gift: Gift }) {
  // It grows live while the page is open (every page showing it is under /e/{uuid}).
  const live = useLivePot(useParams().uuid)?.gift;
  const { potTotal, contributions } = live?.id === gift.id ? live : gift;
  const total = formatMoney(potTotal, gift.currency);
  return (
    <p className="gift-pot" data-gift-pot={gift.id} aria-live="polite">
      <strong>{total}</strong> from {contributions} {contributions === 1 ? "person" : "people"}
      {gift.targetAmount ? ` of a ${formatMoney(gift.targetAmount, gift.currency)} target` : ""} for a {gift.productName} card.
    </p>
  );
}
