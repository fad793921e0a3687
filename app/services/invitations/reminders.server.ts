import { acceptsContributions } from "~/domain/event-permissions";
import { dueReminder } from "~/domain/reminders";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { findRsvpById, listReminderCandidates } from "~/models/rsvp.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { reminderEmail, reminderSms } from "~/services/invitations/invitation-messages.server";
import { invitationContext } from "~/services/invitations/invitations.server";
import { sendMail } from "~/services/messaging/mail.server";
import { sendSms } from "~/services/messaging/sms.server";

/** The periodic sweep: queues each reminder that is due (spec: 3 days and 1 day before the deadline). */
export async function sweepReminders(now = new Date()) {
  let queued = 0;
  for (const candidate of await listReminderCandidates(db(), now)) {
    const window = dueReminder(candidate, now, candidate.sentWindows);
    if (!window) continue;
    await enqueue("rsvp-reminder", { rsvpId: candidate.rsvpId, window });
    queued++;
  }
  return queued;
}

/** One reminder, on the invitee's channels; each window goes out once, whatever retries happen. */
export async function sendReminder(rsvpId: string, window: string) {
  const rsvp = await findRsvpById(db(), rsvpId);
  if (!rsvp || rsvp.unsubscribedAt || rsvp.status === "contributed" || rsvp.status === "declined") return;
  const event = await findEventById(db(), rsvp.eventId);
  if (!event || !acceptsContributions(event)) return;
  const context = await invitationContext(event, rsvp);
  if (rsvp.viaEmail && rsvp.email) {
    const email = rsvp.email;
    await deliverOnce(`reminder:${rsvp.id}:${window}:email`, "email", email, () => sendMail({ to: email, ...reminderEmail(context) }));
  }
  if (rsvp.viaSms && rsvp.phone) {
    const phone = rsvp.phone;
    await deliverOnce(`reminder:${rsvp.id}:${window}:sms`, "sms", phone, () => sendSms({ to: phone, body: reminderSms(context) }));
  }
}
