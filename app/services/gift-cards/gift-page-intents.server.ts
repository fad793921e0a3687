import { formatMoney } from "~/domain/commerce/money";
import { formDone, formText, type EventIntent } from "~/services/events/event-page-form.server";
import { turnOffGift, turnOnGift } from "./gifts.server";

/** The organiser's gift forms on the event page (intent=gift, gift-off). */
export const giftIntents: Record<string, EventIntent> = {
  async gift({ event, form }) {
    const gift = await turnOnGift(event, {
      country: formText(form, "country"),
      productId: formText(form, "productId"),
      target: formText(form, "target"),
    });
    const target = gift.targetAmount ? `, aiming for ${formatMoney(gift.targetAmount, gift.currency)}` : "";
    return formDone("gift", `The gift is on: a ${gift.productName} card${target}. Contributors can chip in from their page.`);
  },
  async "gift-off"({ event }) {
    await turnOffGift(event);
    return formDone("gift", "The gift is off.");
  },
};
