import type { Postcard, User } from "drizzle/schema";
import { formatDeliveryDay } from "~/domain/delivery-estimate";
import { canManageEvent } from "~/domain/event-permissions";
import { POSTCARD_COUNTRIES } from "~/domain/postcard";
import { db } from "~/lib/db.server";
import { notFound } from "~/lib/http.server";
import { listPostcardsOfEvent } from "~/models/postcard.server";
import { listCountries } from "~/services/commerce/countries.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import { managedPostcard, NO_CHORUS, NOT_FOUND, postcardView } from "./postcards.server";
import { refreshMailing } from "./sending.server";

// The organiser's postcard pages (docs/decisions/030-postcards.md): a Chorus's cards and one card's
// design and status page, each card as the print service now reports it, in words.

/** The Chorus at `/e/{uuid}` when `user` manages it; 404 "no Chorus" for anyone else. */
async function managedEventByUuid(user: User | null, eventUuid: string | undefined) {
  const { event, viewer } = await openEventByUuid(user, eventUuid, {});
  if (!canManageEvent(viewer.role)) throw notFound(NO_CHORUS);
  return event;
}

const STATUS_LABELS: Record<Postcard["status"], string> = {
  draft: "Draft: you can change it until you pay.",
  checkout: "Waiting for your payment.",
  paid: "Paid: on its way to the printer.",
  sent: "With the print service.",
  failed: "It could not be sent; the payment is being refunded.",
  refunded: "It could not be sent; the payment is refunded.",
};
const CHECKOUT_EXPIRED_LABEL = "Not paid: the payment page expired, so nothing was charged. You can change the card and pay again.";
const MAILING_LABELS: Record<string, string> = {
  created: "With the print service, waiting to be printed.",
  printed: "Printed, waiting for the post.",
  mailed: "In the post.",
  delivered: "Delivered.",
  returned: "The post returned it.",
};

const labelled = (postcard: Postcard) => {
  const view = postcardView(postcard);
  const inThePost = postcard.status === "sent";
  const mailing = inThePost && postcard.mailingStatus ? MAILING_LABELS[postcard.mailingStatus] : null;
  const final = postcard.mailingStatus === "delivered" || postcard.mailingStatus === "returned";
  const expectedBy = inThePost && postcard.expectedDelivery && !final ? formatDeliveryDay(postcard.expectedDelivery) : null;
  const status = view.checkoutExpired ? CHECKOUT_EXPIRED_LABEL : STATUS_LABELS[postcard.status];
  return {
    ...view,
    statusLabel: mailing ? `${mailing}${expectedBy ? ` Expected by ${expectedBy}.` : ""}` : status,
    /** Where the print service says the card is, while it is with the service. */
    trackingUrl: inThePost ? postcard.trackingUrl : null,
  };
};

/** A card as the print service now reports it, asked again while it is in the post (a page view counts as asking). */
const current = async (postcard: Postcard) => (await refreshMailing(postcard.id)) ?? postcard;

/** The postcards page of a Chorus: its cards as they now stand, for someone who manages it (404 otherwise). */
export async function postcardsOfEvent(user: User | null, eventUuid: string | undefined) {
  const event = await managedEventByUuid(user, eventUuid);
  const cards = await Promise.all((await listPostcardsOfEvent(db(), event.id)).map(current));
  return { event, cards: cards.map(labelled) };
}

/** One card's design and status page; its state at the print service is asked again on each load. */
export async function postcardPage(user: User | null, eventUuid: string | undefined, id: string | undefined, url?: URL) {
  const managed = await managedEventByUuid(user, eventUuid);
  const { postcard, event } = await managedPostcard(user, id);
  if (event.id !== managed.id) throw notFound(NOT_FOUND);
  const card = await current(postcard);
  const names = new Map(listCountries().map((c) => [c.code, c.name]));
  return {
    uuid: event.uuid,
    card: labelled(card),
    countries: [...POSTCARD_COUNTRIES].map((code) => ({ value: code, label: names.get(code) ?? code })),
    saved: url?.searchParams.get("saved") === "1",
  };
}

/** A design form's fields as the API's payload: `address.*` fields become the address. */
export function postcardPayloadOf(form: FormData) {
  const field = (name: string) => String(form.get(name) ?? "");
  const address = Object.fromEntries(
    ["name", "line1", "line2", "city", "region", "postalCode", "country"].map((key) => [key, field(`address.${key}`)]),
  );
  const blank = ["name", "line1", "city", "postalCode"].every((key) => !address[key]!.trim());
  return { templateId: field("templateId") || undefined, message: field("message"), address: blank ? null : address };
}
