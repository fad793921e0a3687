import type { Event, Recipient, Rsvp } from "drizzle/schema";
import { acceptsContributions } from "~/domain/event-permissions";
import { findOccasion } from "~/domain/occasions";
import { formatRecipientNames, occasionTitle } from "~/domain/recipient-names";
import { env } from "~/lib/env.server";

// What each viewer of an event may see (spec §4). Nothing private leaves through a
// view that is not the creator's: no keys, no addresses, no invitee list.

export function occasionOf(event: Event) {
  const occasion = findOccasion(event.occasion);
  const label = event.occasion === "other" && event.occasionOther ? event.occasionOther : (occasion?.label ?? event.occasion);
  const phrase = event.occasion === "other" && event.occasionOther ? event.occasionOther : (occasion?.phrase ?? event.occasion);
  return { type: event.occasion, label: event.guestbook ? `${label} Guestbook` : label, phrase, emoji: occasion?.emoji ?? "🎉" };
}

const names = (recipients: Recipient[]) => recipients.map((r) => ({ firstName: r.firstName, lastName: r.lastName }));

/** The heading every view shares: "Ana and Bo's birthday". */
export function headlineOf(event: Event, recipients: Recipient[]) {
  const occasion = occasionOf(event);
  // A guestbook is named as one: "Ana and Bo's Wedding Guestbook".
  return event.title || occasionTitle(names(recipients), event.guestbook ? occasion.label : occasion.phrase);
}

export function shareLinksOf(event: Event) {
  const base = `${new URL(env().APP_URL).protocol}//${env().SHARE_HOST}/e/${event.uuid}`;
  return {
    contribute: base,
    recipient: `${base}?privateKey=${event.privateKey}`,
    viewOnly: `${base}?viewKey=${event.viewKey}`,
  };
}

/** For anyone with the public link: enough to contribute while collecting, nothing more. */
export function publicEventView(event: Event, recipients: Recipient[]) {
  const open = acceptsContributions(event);
  return {
    uuid: event.uuid,
    headline: headlineOf(event, recipients),
    occasion: occasionOf(event),
    guestbook: event.guestbook,
    status: event.status,
    acceptsContributions: open,
    deadline: event.deadline.toISOString(),
    recipientNames: open ? formatRecipientNames(names(recipients), { firstNamesOnly: true }) : null,
    prompts: open ? event.prompts : [],
    message: open ? event.message : "",
  };
}

/** The recipient's private page and the view-only link. */
export function audienceEventView(event: Event, recipients: Recipient[], contributorNames: string[]) {
  return {
    uuid: event.uuid,
    headline: headlineOf(event, recipients),
    occasion: occasionOf(event),
    recipientNames: formatRecipientNames(names(recipients)),
    message: event.message,
    publishedMedia: event.publishedMedia,
    contributors: contributorNames,
    thankYouMessage: event.thankYouMessage,
  };
}

/** Everything, for the organiser (and admins). */
export function creatorEventView(event: Event, recipients: Recipient[], rsvps: Rsvp[]) {
  return {
    id: event.id,
    uuid: event.uuid,
    eventId: event.eventId,
    headline: headlineOf(event, recipients),
    occasion: occasionOf(event),
    occasionOther: event.occasionOther,
    guestbook: event.guestbook,
    status: event.status,
    acceptsContributions: acceptsContributions(event),
    privateKey: event.privateKey,
    viewKey: event.viewKey,
    prompts: event.prompts,
    publishedMedia: event.publishedMedia,
    paid: event.paid,
    contributorsNotified: event.contributorsNotified,
    viaEmail: event.viaEmail,
    viaSms: event.viaSms,
    title: event.title,
    message: event.message,
    thankYouMessage: event.thankYouMessage,
    deadline: event.deadline.toISOString(),
    deliveryAt: event.deliveryAt?.toISOString() ?? null,
    timeZone: event.timeZone,
    openedAt: event.openedAt?.toISOString() ?? null,
    deliveredAt: event.deliveredAt?.toISOString() ?? null,
    createdAt: event.createdAt.toISOString(),
    deletedAt: event.deletedAt?.toISOString() ?? null,
    recipients: recipients.map((r) => ({ id: r.id, firstName: r.firstName, lastName: r.lastName })),
    rsvps: rsvps.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      viaEmail: r.viaEmail,
      viaSms: r.viaSms,
      status: r.status,
      inviteSentAt: r.inviteSentAt?.toISOString() ?? null,
      inviteOpenedAt: r.inviteOpenedAt?.toISOString() ?? null,
      contributedAt: r.contributedAt?.toISOString() ?? null,
      unsubscribed: !!r.unsubscribedAt,
    })),
    shareLinks: shareLinksOf(event),
  };
}
