import type { Event, Rsvp } from "drizzle/schema";
import { acceptsContributions } from "~/domain/event-permissions";
import { inviteeInput, type InviteeInput } from "~/domain/invitee-input";
import { enqueue, enqueueMany } from "~/jobs/queue.server";
import { databaseErrorCode } from "~/lib/database-errors.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { keysMatch } from "~/lib/event-keys.server";
import { ApiError, badRequest, notFound, parseWith } from "~/lib/http.server";
import { unsubscribeTokenFor } from "~/lib/invite-token.server";
import { uuidParam } from "~/lib/params.server";
import { findEventById, listRecipients, markEventInvitedBy, updateEvent } from "~/models/event.server";
import { findRsvpByAddress, findRsvpById, insertRsvp, listUninvitedRsvps, updateRsvp } from "~/models/rsvp.server";
import { findProfileOfUser } from "~/models/user-profile.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { headlineOf } from "~/services/events/event-views.server";
import { invitationEmail, invitationSms, type InvitationContext } from "~/services/invitations/invitation-messages.server";
import { sendMail } from "~/services/messaging/mail.server";
import { sendSms } from "~/services/messaging/sms.server";

const duplicate = (field: "email" | "phone") =>
  new ApiError(409, "DUPLICATE_INVITEE", "This person is already invited.", {
    [field]: field === "email" ? "Someone with this e-mail is already invited." : "Someone with this number is already invited.",
  });

export const parseInvitee = (payload: unknown) => parseWith(inviteeInput(env().DEFAULT_PHONE_COUNTRY), payload);

/**
 * Adds an invitee to an event, once per e-mail and once per phone number; with `invite`, queues
 * their invitation too. The invitee and the invitation job are written in one transaction: a
 * process that dies between the two leaves neither, so the organiser's retry adds them again,
 * rather than an invitee nobody will invite and a retry refused as "already invited".
 */
export async function addInvitee(event: Event, input: InviteeInput, { invite = false } = {}) {
  if (invite) ensureOpen(event);
  const existing = await findRsvpByAddress(db(), event.id, input);
  if (existing) throw duplicate(existing.email && input.email && existing.email === input.email ? "email" : "phone");
  try {
    return await db().transaction(async (tx) => {
      const rsvp = await insertRsvp(tx, { eventId: event.id, ...input });
      if (invite) await enqueue("rsvp-invite", { rsvpId: rsvp.id }, { db: tx });
      return rsvp;
    });
  } catch (error) {
    // Two requests racing past the check meet the unique index.
    if (databaseErrorCode(error) === "23505") throw duplicate(input.email ? "email" : "phone");
    throw error;
  }
}

export async function changeInvitee(rsvp: Rsvp, input: InviteeInput) {
  const other = await findRsvpByAddress(db(), rsvp.eventId, input);
  if (other && other.id !== rsvp.id) throw duplicate(other.email === input.email ? "email" : "phone");
  return (await updateRsvp(db(), rsvp.id, input))!;
}

function ensureOpen(event: Event) {
  if (!acceptsContributions(event)) {
    throw new ApiError(
      409,
      "EVENT_CLOSED",
      "This Chorus is no longer collecting contributions. Extend the deadline to invite more people.",
    );
  }
}

/** Queues this invitee's invitation (a second click while one waits does not queue another). */
export async function queueInvitation(event: Event, rsvp: Rsvp) {
  ensureOpen(event);
  if (rsvp.unsubscribedAt) throw badRequest("This person asked not to receive messages about this Chorus.");
  await enqueue("rsvp-invite", { rsvpId: rsvp.id });
}

/** POST /mail/contributors: invites everyone not yet invited. */
export async function inviteAllPending(event: Event) {
  ensureOpen(event);
  // One statement in one transaction: a Chorus of hundreds is queued at once, not one commit per
  // invitee, and the workers hear of it when it is all there.
  return db().transaction(async (tx) => {
    const pending = await listUninvitedRsvps(tx, event.id);
    const jobs = pending.map((rsvp) => ({ data: { rsvpId: rsvp.id } }));
    await enqueueMany("rsvp-invite", jobs, { db: tx });
    await updateEvent(tx, event.id, { contributorsNotified: true });
    return pending.length;
  });
}

export async function invitationContext(event: Event, rsvp: Rsvp): Promise<InvitationContext> {
  const creator = await findUserById(db(), event.creatorId);
  const profile = creator ? await findProfileOfUser(db(), creator.id) : null;
  const organiserName =
    [profile?.firstName, profile?.lastName].filter(Boolean).join(" ") || creator?.email.split("@")[0] || "The organiser";
  return { event, rsvp, headline: headlineOf(event, await listRecipients(db(), event.id)), organiserName };
}

/**
 * The invitation job: one e-mail and/or one text, each sent at most once per job
 * (a retry after a failure or a crash resends only what did not go out).
 */
export async function sendInvitation(jobId: string, rsvpId: string) {
  const rsvp = await findRsvpById(db(), rsvpId);
  if (!rsvp || rsvp.unsubscribedAt) return;
  const event = await findEventById(db(), rsvp.eventId);
  if (!event || !acceptsContributions(event)) return;
  const context = await invitationContext(event, rsvp);
  if (rsvp.viaEmail && rsvp.email) {
    const email = rsvp.email;
    await deliverOnce(`invite:${jobId}:email`, "email", email, () => sendMail({ to: email, ...invitationEmail(context) }));
  }
  if (rsvp.viaSms && rsvp.phone) {
    const phone = rsvp.phone;
    await deliverOnce(`invite:${jobId}:sms`, "sms", phone, () => sendSms({ to: phone, body: invitationSms(context) }));
  }
  await updateRsvp(db(), rsvp.id, { inviteSentAt: new Date(), status: rsvp.status === "pending" ? "invited" : rsvp.status });
  await markEventInvitedBy(db(), event.id, { email: rsvp.viaEmail && !!rsvp.email, sms: rsvp.viaSms && !!rsvp.phone });
}

/** What an unsubscribe link names, for a valid link only; looking never unsubscribes (mail scanners follow links). */
export async function unsubscribeLinkTarget(rawRsvpId: string | undefined, token: string | null) {
  const rsvp = await findRsvpById(db(), uuidParam(rawRsvpId, "invitation"));
  if (!rsvp || !keysMatch(token, unsubscribeTokenFor(rsvp.id))) throw notFound("This unsubscribe link is not valid.");
  const event = await findEventById(db(), rsvp.eventId, { withDeleted: true });
  return { rsvp, headline: event ? headlineOf(event, await listRecipients(db(), event.id)) : null };
}

/** Honours an unsubscribe link: no more invitations, reminders or messages about this Chorus. */
export async function unsubscribe(rawRsvpId: string | undefined, token: string | null) {
  const { rsvp } = await unsubscribeLinkTarget(rawRsvpId, token);
  if (!rsvp.unsubscribedAt) await updateRsvp(db(), rsvp.id, { unsubscribedAt: new Date() });
  return rsvp;
}
