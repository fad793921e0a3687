import { formatMoney } from "~/domain/commerce/money";
import type { PageOf } from "~/services/events/event-page.server";

// Its own module: contributors and the chip-in page draw the pot without the organiser's gift form.
type Gift = NonNullable<PageOf<"creator">["gift"]["gift"]>;

/** The pot so far, against the target if there is one. */
export function GiftPot({ gift }: { gift: Gift }) {
  const total = formatMoney(gift.potTotal, gift.currency);
  return (
    <p className="gift-pot" data-gift-pot={gift.id}>
      <strong>{total}</strong> from {gift.contributions} {gift.contributions === 1 ? "person" : "people"}
      {gift.targetAmount ? ` of a ${formatMoney(gift.targetAmount, gift.currency)} target` : ""} for a {gift.productName} card.
    </p>
  );
}
