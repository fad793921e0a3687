import { json } from "@remix-run/node";
import { z } from "zod";
import type { Event, Recipient, Rsvp } from "../../drizzle/schema/index";
import { formatLongDay, formatMoment, formatShortDay, timeIn } from "~/components/event/event-dates";
import { eventStatusOf } from "~/components/event/event-status";
import { acceptsContributions } from "~/domain/event-permissions";
import { db } from "~/lib/db.server";
import type { FormReply } from "~/lib/form.server";
import { badRequest, forbidden, isApiError, notFound, parseWith } from "~/lib/http.server";
import { keysMatch } from "~/lib/event-keys.server";
import { unsubscribeTokenFor } from "~/lib/invite-token.server";
import { uuidParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader, type Toast } from "~/lib/toast.server";
import { findEventById, findEventByUuid, findRecipientById, listRecipients, updateEvent } from "~/models/event.server";
import { findRsvpById, updateRsvp } from "~/models/rsvp.server";
// TODO(start-a-chorus owner): these pure helpers belong in app/domain/; only the path changes when they move.
import { dayIn, END_OF_DAY, zonedDateTime } from "~/routes/start-a-chorus/zoned-time";
import { timeZoneOptions } from "~/routes/start-a-chorus/time-zones";
import { queueBroadcast } from "./broadcast.server";
import { keysFromUrl, type EventViewer } from "./event-access.server";
import { scheduleDelivery } from "./event-delivery.server";
import { headlineOf, type creatorEventView } from "./event-views.server";
import { eventViewFor, openEvent, rotateKey, setDeleted, updateEventAs } from "./events.server";
import { addInvitee, inviteAllPending, parseInvitee, queueInvitation } from "./invitations.server";
import { addRecipient, changeRecipient, removeRecipient } from "./recipients.server";

// The event page (/e/{uuid}): what each viewer sees, and its plain-form actions, which
// call the same services as the JSON API. The event always comes from the uuid in the
// address, never from a hidden field, and every management action re-checks the role.

/** An action's answer: FormReply plus which form it belongs to. */
export interface EventFormReply extends FormReply {
  intent: string;
  /** Changes on every success, so the form that was sent can start empty again. */
  sentAt?: number;
}

async function openEventByUuid(request: Request, rawUuid: string | undefined) {
  const found = await findEventByUuid(db(), uuidParam(rawUuid, "Chorus"), { withDeleted: true });
  if (!found) throw notFound("There is no Chorus with this id.");
  return openEvent(request, found.id, keysFromUrl(new URL(request.url)));
}

/** A failure in a page loader becomes the page's error boundary with the same status. */
export function asPageError(error: unknown) {
  if (isApiError(error)) return new Response(error.message, { status: error.status });
  return error;
}

// ——— What each viewer sees ———

type Invitee = ReturnType<typeof creatorEventView>["rsvps"][number];

const statusLabel = (r: Invitee, timeZone: string) => {
  if (r.unsubscribed) return "Unsubscribed";
  if (r.status === "contributed") return "Contributed";
  if (r.status === "opened") return "Opened";
  if (r.status === "declined") return "Declined";
  return r.inviteSentAt ? `Invited on ${formatShortDay(r.inviteSentAt, timeZone)}` : "Not invited yet";
};

const channelsOf = (r: Invitee) => [r.viaEmail && r.email ? "E-mail" : null, r.viaSms && r.phone ? "Text" : null].filter(Boolean).join(", ");

function creatorPage(event: Event, view: ReturnType<typeof creatorEventView>, recipients: Recipient[]) {
  const collecting = acceptsContributions(event);
  const rsvps = view.rsvps;
  return {
    kind: "creator" as const,
    uuid: event.uuid,
    headline: view.headline,
    occasion: view.occasion,
    eventCode: view.eventId,
    status: eventStatusOf(event),
    deadline: formatMoment(event.deadline, event.timeZone),
    deleted: !!event.deletedAt,
    collecting,
    shareLinks: view.shareLinks,
    invitees: rsvps.map((r) => ({
      id: r.id,
      name: r.name,
      contact: [r.email, r.phone].filter(Boolean).join(" · "),
      channels: channelsOf(r) || "None",
      status: statusLabel(r, event.timeZone),
      canInvite: collecting && !r.unsubscribed,
      invited: !!r.inviteSentAt,
    })),
    notYetInvited: rsvps.filter((r) => !r.inviteSentAt && !r.unsubscribed).length,
    contributors: rsvps.filter((r) => r.status === "contributed").map((r) => r.name),
    // The creator view names recipients only; editing and delivery need their addresses too.
    recipients: recipients.map((r) => ({ id: r.id, firstName: r.firstName, lastName: r.lastName, email: r.email ?? "", phone: r.phone ?? "" })),
    settings: {
      title: event.title,
      message: event.message,
      prompts: event.prompts.join("\n"),
      deadlineDate: dayIn(event.deadline, event.timeZone),
      deadlineTime: timeIn(event.deadline, event.timeZone),
      timeZone: event.timeZone,
      timeZones: timeZoneOptions(event.timeZone),
      guestbook: event.guestbook,
      status: event.status,
    },
    delivery: {
      possible: recipients.some((r) => r.email || r.phone),
      scheduledFor: event.deliveryAt ? formatMoment(event.deliveryAt, event.timeZone) : null,
      deliveredAt: event.deliveredAt ? formatMoment(event.deliveredAt, event.timeZone) : null,
      today: dayIn(new Date(), event.timeZone),
      timeZone: event.timeZone,
    },
    thankYouMessage: view.thankYouMessage,
  };
}

/** An invitee who opens their personal link is marked as having opened it, once. */
async function markInviteOpened(rsvp: Rsvp) {
  if (rsvp.inviteOpenedAt) return;
  const status = rsvp.status === "invited" || rsvp.status === "pending" ? "opened" : rsvp.status;
  await updateRsvp(db(), rsvp.id, { inviteOpenedAt: new Date(), status });
}

/** The recipient's first visit (kept once): from their page's script, or their first form post. */
async function markOpened(event: Event) {
  if (!event.openedAt) await updateEvent(db(), event.id, { openedAt: new Date() });
}

export async function loadEventPage(request: Request, rawUuid: string | undefined) {
  const { event, viewer } = await openEventByUuid(request, rawUuid);
  // Spec §2.2: everyone but the creator may report the page from the footer.
  const footerReport = viewer.role === "creator" ? null : { eventId: event.id };
  const view = await eventViewFor(event, viewer);
  if (view.role === "creator") {
    return { footerReport, page: creatorPage(event, view.event, await listRecipients(db(), event.id)) };
  }
  if (view.role === "public") {
    if (viewer.rsvp) await markInviteOpened(viewer.rsvp);
    const open = view.event;
    if (!view.contributor) return { footerReport, page: { kind: "public" as const, headline: open.headline, occasion: open.occasion } };
    return {
      footerReport,
      page: {
        kind: "contributor" as const,
        headline: open.headline,
        occasion: open.occasion,
        message: open.message,
        prompts: open.prompts,
        deadline: formatLongDay(event.deadline, event.timeZone),
        greeting: viewer.rsvp?.name ?? null,
      },
    };
  }
  const audience = view.event;
  return {
    footerReport,
    page: {
      kind: view.role,
      // The API id, for the recipient page's "opened" call.
      id: event.id,
      headline: audience.headline,
      occasion: audience.occasion,
      recipientNames: audience.recipientNames,
      videoReady: !!audience.publishedMedia,
      contributors: audience.contributors,
      thankYouMessage: view.role === "recipient" ? audience.thankYouMessage : "",
    },
  };
}

export type EventPageData = Awaited<ReturnType<typeof loadEventPage>>["page"];
export type PageOf<K extends EventPageData["kind"]> = Extract<EventPageData, { kind: K }>;
/** The recipient's page and the view-only page share one shape. */
export type AudiencePage = Extract<EventPageData, { kind: "recipient" | "view-only" }>;

// ——— The page's forms ———

interface IntentContext {
  event: Event;
  viewer: EventViewer;
  form: FormData;
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

const done = (intent: string, message: string) => json<EventFormReply>({ intent, ok: true, message, sentAt: Date.now() });

async function backToPage(event: Event, toast: Toast, section = "") {
  return redirectWithCookies(`/e/${event.uuid}${section ? `#${section}` : ""}`, [await toastHeader(toast)]);
}

async function rsvpOf(event: Event, form: FormData) {
  const rsvp = await findRsvpById(db(), uuidParam(text(form, "rsvpId"), "invitee"));
  if (!rsvp || rsvp.eventId !== event.id) throw notFound("There is no invitee with this id.");
  return rsvp;
}

async function recipientOf(event: Event, form: FormData) {
  const recipient = await findRecipientById(db(), uuidParam(text(form, "recipientId"), "recipient"));
  if (!recipient || recipient.eventId !== event.id) throw notFound("There is no recipient with this id.");
  return recipient;
}

/**
 * The invite form's channel boxes both start ticked and mean "use this when I give it":
 * a ticked channel with an empty address is dropped when another ticked one has an address.
 */
function inviteeFromForm(form: FormData) {
  const email = text(form, "email").trim();
  const phone = text(form, "phone").trim();
  const byEmail = form.has("viaEmail");
  const bySms = form.has("viaSms");
  return parseInvitee({
    name: text(form, "name"),
    email: email || undefined,
    phone: phone || undefined,
    viaEmail: byEmail && (!!email || !(bySms && phone)),
    viaSms: bySms && (!!phone || !(byEmail && email)),
  });
}

const broadcastInput = z.object({
  message: z.string().trim().min(1, "Write a message.").max(5000, "Keep it under 5,000 characters."),
});

/** A day and time typed in the event's zone; `field` names the input that gets the error. */
function momentFromForm(date: string, time: string, timeZone: string, field: string) {
  const at = zonedDateTime(date.trim(), time.trim() || END_OF_DAY, timeZone);
  if (!at) throw badRequest("Some fields need your attention.", { [field]: "Choose a valid date and time." });
  return at;
}

function settingsFromForm(event: Event, form: FormData) {
  const timeZone = text(form, "timeZone").trim() || event.timeZone;
  const deadline = momentFromForm(text(form, "deadlineDate"), text(form, "deadlineTime"), timeZone, "deadline");
  const payload: Record<string, unknown> = {
    title: text(form, "title"),
    message: text(form, "message"),
    prompts: text(form, "prompts").split(/\r?\n/),
    timeZone,
    guestbook: form.has("guestbook"),
  };
  // An unchanged deadline is not re-checked: a closed Chorus can still be renamed.
  if (Math.abs(deadline.getTime() - event.deadline.getTime()) >= 60_000) payload.deadline = deadline.toISOString();
  const status = text(form, "status");
  if (status === "active" || status === "closed") payload.status = status;
  return payload;
}

const managerIntents: Record<string, (context: IntentContext) => Promise<Response>> = {
  async invite({ event, form }) {
    const rsvp = await addInvitee(event, inviteeFromForm(form));
    if (!form.has("sendNow")) return done("invite", `${rsvp.name} is on the list. Send the invitation when you're ready.`);
    await queueInvitation(event, rsvp);
    return done("invite", `${rsvp.name} is on the list, and their invitation is on its way.`);
  },
  async "invite-one"({ event, form }) {
    const rsvp = await rsvpOf(event, form);
    await queueInvitation(event, rsvp);
    return done("invite-one", `The invitation to ${rsvp.name} is on its way.`);
  },
  async "invite-all"({ event }) {
    const count = await inviteAllPending(event);
    return done("invite-all", count === 0 ? "Everyone has been invited already." : `${count} ${count === 1 ? "invitation is" : "invitations are"} on the way.`);
  },
  async broadcast({ event, form }) {
    const { message } = parseWith(broadcastInput, { message: text(form, "message") });
    const count = await queueBroadcast(event, message);
    return done("broadcast", count === 0 ? "No one to write to yet: invite people by e-mail first." : `Your message is on its way to ${count} ${count === 1 ? "person" : "people"}.`);
  },
  async "add-recipient"({ event, form }) {
    const recipient = await addRecipient(event, Object.fromEntries(["firstName", "lastName", "email", "phone"].map((k) => [k, text(form, k)])));
    return done("add-recipient", `${recipient.firstName} is now a recipient.`);
  },
  async "change-recipient"({ event, form }) {
    const recipient = await changeRecipient(await recipientOf(event, form), Object.fromEntries(["firstName", "lastName", "email", "phone"].map((k) => [k, text(form, k)])));
    return done("change-recipient", `${recipient.firstName}'s details are saved.`);
  },
  async "remove-recipient"({ event, form }) {
    const recipient = await recipientOf(event, form);
    await removeRecipient(recipient);
    return backToPage(event, { type: "success", title: `${recipient.firstName} is no longer a recipient` }, "recipients");
  },
  async settings({ event, viewer, form }) {
    await updateEventAs(viewer, event, settingsFromForm(event, form));
    return done("settings", "Your changes are saved.");
  },
  async deliver({ event, form }) {
    const at = text(form, "when") === "later" ? momentFromForm(text(form, "deliverDate"), text(form, "deliverTime"), event.timeZone, "deliverAt") : null;
    if (at && at.getTime() <= Date.now()) throw badRequest("Some fields need your attention.", { deliverAt: "Choose a moment in the future, or send it now." });
    const { scheduledFor } = await scheduleDelivery(event, at);
    return done("deliver", scheduledFor ? `The private link will be sent on ${formatMoment(scheduledFor, event.timeZone)}.` : "The private link is on its way to the recipient.");
  },
  async "rotate-private-key"({ event }) {
    await rotateKey(event, "privateKey");
    return backToPage(event, { type: "success", title: "New recipient link ready", description: "The old one no longer works." }, "share");
  },
  async "rotate-view-key"({ event }) {
    await rotateKey(event, "viewKey");
    return backToPage(event, { type: "success", title: "New view-only link ready", description: "The old one no longer works." }, "share");
  },
  async delete({ event }) {
    await setDeleted(event, true);
    return backToPage(event, { type: "success", title: "Chorus deleted", description: "Only you can see it now. You can restore it from this page." });
  },
  async restore({ event }) {
    await setDeleted(event, false);
    return backToPage(event, { type: "success", title: "Chorus restored", description: "Everyone with a link can open it again." });
  },
};

const recipientIntents: Record<string, (context: IntentContext) => Promise<Response>> = {
  async "thank-you"({ event, viewer, form }) {
    await updateEventAs(viewer, event, { thankYouMessage: text(form, "thankYouMessage") });
    await markOpened(event);
    return done("thank-you", "Thank you! Your message is saved for everyone who took part.");
  },
};

/** Runs one of the page's forms; failures answer the same page with the form's errors and values. */
export async function runEventIntent(request: Request, rawUuid: string | undefined) {
  const form = await request.formData();
  const intent = text(form, "intent");
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") values[key] = value;
  try {
    const { event, viewer } = await openEventByUuid(request, rawUuid);
    const context = { event, viewer, form };
    if (managerIntents[intent]) {
      if (viewer.role !== "creator") throw forbidden("Only the organiser can do that.");
      return await managerIntents[intent]!(context);
    }
    if (recipientIntents[intent]) {
      if (viewer.role !== "recipient") throw forbidden("Only the recipient's private link can do that.");
      return await recipientIntents[intent]!(context);
    }
    throw badRequest("This form is not one we know. Reload the page and try again.");
  } catch (error) {
    if (!isApiError(error)) throw error;
    return json<EventFormReply>({ intent, formError: error.message, errors: error.fields, values }, { status: error.status });
  }
}

// ——— /unsubscribe/{rsvpId}?t= ———

/** What the unsubscribe page names, for a valid link only; looking never unsubscribes (mail scanners follow links). */
export async function unsubscribeLinkTarget(rawRsvpId: string | undefined, token: string | null) {
  const rsvp = await findRsvpById(db(), uuidParam(rawRsvpId, "invitation"));
  if (!rsvp || !keysMatch(token, unsubscribeTokenFor(rsvp.id))) throw notFound("This unsubscribe link is not valid.");
  const event = await findEventById(db(), rsvp.eventId, { withDeleted: true });
  return { rsvp, headline: event ? headlineOf(event, await listRecipients(db(), event.id)) : null };
}
