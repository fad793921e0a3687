import type { Event } from "drizzle/schema";
import { z } from "zod";
import { formatMoment } from "~/domain/event-dates";
import { END_OF_DAY, zonedDateTime } from "~/domain/zoned-time";
import { db } from "~/lib/db.server";
import { badRequest, forbidden, notFound, parseWith } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import type { Toast } from "~/lib/toast.server";
import { findRecipientById } from "~/models/event.server";
import { findRsvpById } from "~/models/rsvp.server";
import { scheduleDelivery } from "~/services/events/event-delivery.server";
import {
  formDone as done,
  formText,
  type EventIntent,
  type EventIntentOutcome,
  type IntentContext,
} from "~/services/events/event-page-form.server";
import { markEventOpened, rotateKey, setDeleted, updateEventAs } from "~/services/events/events.server";
import { addRecipient, changeRecipient, removeRecipient } from "~/services/events/recipients.server";
import { giftIntents } from "~/services/gift-cards/gift-page-intents.server";
import { queueBroadcast } from "~/services/invitations/broadcast.server";
import { addInvitee, inviteAllPending, parseInvitee, queueInvitation } from "~/services/invitations/invitations.server";
import { mediaIntents } from "~/services/media/media-page-intents.server";

// The event page's plain-form actions (/e/{uuid}, intent=...). They call the same services as
// the JSON API; the event comes from the uuid in the address and the role is checked each time.

const text = formText;

const backToPage = (toast: Toast, section = ""): EventIntentOutcome => ({ toast, section });

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

const managerIntents: Record<string, EventIntent> = {
  // The contributions grid: move, hide, archive, restore, edit (media-page-intents.server.ts).
  ...mediaIntents,
  // The group gift card: turn it on, change it, turn it off (gift-page-intents.server.ts).
  ...giftIntents,
  async invite({ event, form }) {
    const sendNow = form.has("sendNow");
    const rsvp = await addInvitee(event, inviteeFromForm(form), { invite: sendNow });
    if (!sendNow) return done("invite", `${rsvp.name} is on the list. Send the invitation when you're ready.`);
    return done("invite", `${rsvp.name} is on the list, and their invitation is on its way.`);
  },
  async "invite-one"({ event, form }) {
    const rsvp = await rsvpOf(event, form);
    await queueInvitation(event, rsvp);
    return done("invite-one", `The invitation to ${rsvp.name} is on its way.`);
  },
  async "invite-all"({ event }) {
    const count = await inviteAllPending(event);
    return done(
      "invite-all",
      count === 0 ? "Everyone has been invited already." : `${count} ${count === 1 ? "invitation is" : "invitations are"} on the way.`,
    );
  },
  async broadcast({ event, form }) {
    const { message } = parseWith(broadcastInput, { message: text(form, "message") });
    const count = await queueBroadcast(event, message);
    return done(
      "broadcast",
      count === 0
        ? "No one to write to yet: invite people by e-mail first."
        : `Your message is on its way to ${count} ${count === 1 ? "person" : "people"}.`,
    );
  },
  async "add-recipient"({ event, form }) {
    const recipient = await addRecipient(
      event,
      Object.fromEntries(["firstName", "lastName", "email", "phone"].map((k) => [k, text(form, k)])),
    );
    return done("add-recipient", `${recipient.firstName} is now a recipient.`);
  },
  async "change-recipient"({ event, form }) {
    const recipient = await changeRecipient(
      await recipientOf(event, form),
      Object.fromEntries(["firstName", "lastName", "email", "phone"].map((k) => [k, text(form, k)])),
    );
    return done("change-recipient", `${recipient.firstName}'s details are saved.`);
  },
  async "remove-recipient"({ event, form }) {
    const recipient = await recipientOf(event, form);
    await removeRecipient(recipient);
    return backToPage({ type: "success", title: `${recipient.firstName} is no longer a recipient` }, "recipients");
  },
  async settings({ event, viewer, form }) {
    await updateEventAs(viewer, event, settingsFromForm(event, form));
    return done("settings", "Your changes are saved.");
  },
  async deliver({ event, form }) {
    const at =
      text(form, "when") === "later"
        ? momentFromForm(text(form, "deliverDate"), text(form, "deliverTime"), event.timeZone, "deliverAt")
        : null;
    if (at && at.getTime() <= Date.now())
      throw badRequest("Some fields need your attention.", { deliverAt: "Choose a moment in the future, or send it now." });
    const { scheduledFor, waitsForStream } = await scheduleDelivery(event, at);
    return done(
      "deliver",
      scheduledFor
        ? `The private link will be sent on ${formatMoment(scheduledFor, event.timeZone)}.`
        : waitsForStream
          ? "The private link goes to the recipient in a few minutes, once the video just published can stream to their phone."
          : "The private link is on its way to the recipient.",
    );
  },
  async "rotate-private-key"({ event }) {
    await rotateKey(event, "privateKey");
    return backToPage({ type: "success", title: "New recipient link ready", description: "The old one no longer works." }, "share");
  },
  async "rotate-view-key"({ event }) {
    await rotateKey(event, "viewKey");
    return backToPage({ type: "success", title: "New view-only link ready", description: "The old one no longer works." }, "share");
  },
  async delete({ event }) {
    await setDeleted(event, true);
    return backToPage({
      type: "success",
      title: "Chorus deleted",
      description: "Only you can see it now. You can restore it from this page.",
    });
  },
  async restore({ event }) {
    await setDeleted(event, false);
    return backToPage({ type: "success", title: "Chorus restored", description: "Everyone with a link can open it again." });
  },
};

const recipientIntents: Record<string, EventIntent> = {
  async "thank-you"({ event, viewer, form }) {
    await updateEventAs(viewer, event, { thankYouMessage: text(form, "thankYouMessage") });
    await markEventOpened(event);
    return done("thank-you", "Thank you! Your message is saved for everyone who took part.");
  },
};

/** Runs one of the page's forms, by its `intent`, for whoever opened the page; a refusal is thrown as an ApiError. */
export async function runEventIntent(context: IntentContext, intent: string): Promise<EventIntentOutcome> {
  if (managerIntents[intent]) {
    if (context.viewer.role !== "creator") throw forbidden("Only the organiser can do that.");
    return managerIntents[intent]!(context);
  }
  if (recipientIntents[intent]) {
    if (context.viewer.role !== "recipient") throw forbidden("Only the recipient's private link can do that.");
    return recipientIntents[intent]!(context);
  }
  throw badRequest("This form is not one we know. Reload the page and try again.");
}
