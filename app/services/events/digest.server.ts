import type { Event } from "drizzle/schema";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { findEventById, listRecipients } from "~/models/event.server";
import { listRsvps } from "~/models/rsvp.server";
import { findUserById } from "~/models/user.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { headlineOf } from "~/services/events/event-views.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";

/** Contributions are gathered for half an hour, then the organiser gets one e-mail about them. */
export const DIGEST_DELAY_MS = 30 * 60 * 1000;

/** Call when a contribution arrives: at most one digest waits per event. */
export async function queueContributionDigest(event: Event, delayMs = DIGEST_DELAY_MS) {
  await enqueue("event-digest", { eventId: event.id }, { startAfter: new Date(Date.now() + delayMs) });
}

export async function sendContributionDigest(jobId: string, eventId: string) {
  const event = await findEventById(db(), eventId);
  const organiser = event ? await findUserById(db(), event.creatorId) : null;
  if (!event || !organiser) return;
  const rsvps = await listRsvps(db(), event.id);
  const contributed = rsvps.filter((r) => r.status === "contributed");
  const waiting = rsvps.filter((r) => r.status !== "contributed" && r.status !== "declined" && !r.unsubscribedAt);
  const headline = headlineOf(event, await listRecipients(db(), event.id));
  const mail = renderEmail({
    subject: `New clips for ${headline}`,
    heading: `${contributed.length} ${contributed.length === 1 ? "person has" : "people have"} added to ${headline}`,
    paragraphs: [
      contributed.length ? `Contributed so far: ${contributed.map((r) => r.name).join(", ")}.` : "",
      waiting.length ? `Still waiting for ${waiting.length} of your invitees.` : "Everyone you invited has contributed.",
    ].filter(Boolean),
    action: { label: "See the contributions", url: `${env().APP_URL}/e/${event.uuid}` },
  });
  await deliverOnce(`digest:${jobId}`, "email", organiser.email, () => sendMail({ to: organiser.email, ...mail }));
}
