import type { Db } from "~/lib/db.server";
import { markGiftContributionAbandoned } from "~/models/gift.server";
import { markMailOrderAbandoned } from "~/models/mail-order.server";
import { unlockAbandonedPostcard } from "~/models/postcard.server";
import { releaseHoldsOfSession } from "~/models/promo-code-hold.server";
import { markTreeContributionAbandoned } from "~/models/tree-contribution.server";
import { ignored, type PaymentEffect } from "./payment-event-fields.server";
import { checkoutSession, expiredCheckoutMetadata } from "./payment-event-schemas";

// A payment page left unpaid until it expired (`checkout.session.expired`, docs/decisions/029 and
// 030), or whose delayed payment failed (`checkout.session.async_payment_failed`): what it held is
// let go. A postcard goes back to an editable draft, a posted order and a gift or tree contribution
// become abandoned (a gift contribution's room on the card is free again), and a cart's page lets go
// of the promo code's use it held (docs/decisions/046). Only the row still waiting for that very session
// changes, so a repeated or late event, or one for a page already replaced, changes nothing; a
// `completed` that comes after it is still honoured (the paid effects take an abandoned row too).

const ABANDON = {
  postcard: { idField: "postcardId", abandon: unlockAbandonedPostcard },
  "mail-order": { idField: "mailOrderId", abandon: markMailOrderAbandoned },
  "gift-contribution": { idField: "giftContributionId", abandon: markGiftContributionAbandoned },
  "tree-contribution": { idField: "treeContributionId", abandon: markTreeContributionAbandoned },
} as const;

export async function checkoutExpired(session: Record<string, unknown>, tx: Db): Promise<PaymentEffect> {
  const { id: sessionId, metadata: named } = checkoutSession.parse(session);
  const metadata = expiredCheckoutMetadata.parse(named);
  const { kind } = metadata;
  if (kind === "cart") {
    const { cartId } = metadata;
    if (!cartId || !sessionId) return ignored("the session lacks what it was for");
    if (!(await releaseHoldsOfSession(tx, sessionId))) return ignored(`cart ${cartId}'s page held no promo code`);
    return { effect: "checkout-abandoned", kind, id: cartId };
  }
  // A membership holds nothing while its page is open: the next one opens a new page.
  if (!kind || !(kind in ABANDON)) return ignored("an expired checkout of this kind holds nothing");
  const { idField, abandon } = ABANDON[kind as keyof typeof ABANDON];
  const id = metadata[idField];
  if (!id || !sessionId) return ignored("the session lacks what it was for");
  if (!(await abandon(tx, id, sessionId))) return ignored(`nothing of ${kind} ${id} was waiting for this session`);
  return { effect: "checkout-abandoned", kind, id };
}
