import type { Event } from "drizzle/schema";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { listRsvps } from "~/models/rsvp.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { broadcastEmail } from "~/services/invitations/invitation-messages.server";
import { invitationContext } from "~/services/invitations/invitations.server";
import { sendMail } from "~/services/messaging/mail.server";

/** POST /mail/broadcast: one message from the organiser to every invitee reachable by e-mail. */
export async function queueBroadcast(event: Event, message: string) {
  const recipients = (await listRsvps(db(), event.id)).filter((r) => r.email && !r.unsubscribedAt);
  if (recipients.length) await enqueue("event-broadcast", { eventId: event.id, message });
  return recipients.length;
}

export async function sendBroadcast(jobId: string, eventId: string, message: string) {
  const event = await findEventById(db(), eventId);
  if (!event) return;
  for (const rsvp of await listRsvps(db(), event.id)) {
    if (!rsvp.email || rsvp.unsubscribedAt) continue;
    const email = rsvp.email;
    const context = await invitationContext(event, rsvp);
    await deliverOnce(`broadcast:${jobId}:${rsvp.id}:email`, "email", email, () =>
      sendMail({ to: email, ...broadcastEmail(context, message) }),
    );
  }
}
