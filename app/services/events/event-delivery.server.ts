import type { Event } from "drizzle/schema";
import { PRODUCT_NAME } from "~/domain/product";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError } from "~/lib/http.server";
import { findEventById, listRecipients, updateEvent } from "~/models/event.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { findUserById } from "~/models/user.server";
import { eventUnlocked, requireUnlocked } from "~/services/commerce/unlock.server";
import { deliverOnce } from "~/services/events/delivery.server";
import { headlineOf, shareLinksOf } from "~/services/events/event-views.server";
import { notify } from "~/services/events/notifications.server";
import { queueGiftPayout } from "~/services/gift-cards/payout.server";
import { renderEmail } from "~/services/messaging/email-layout.server";
import { sendMail } from "~/services/messaging/mail.server";
import { sendSms } from "~/services/messaging/sms.server";

/**
 * POST /v2/events/{id}/deliver: the recipient gets their private link now, or at
 * `at` (a job waits until then). Recipients need an e-mail or a phone number.
 */
export async function scheduleDelivery(event: Event, at: Date | null) {
  // Delivery is what payment unlocks (docs/decisions/018-what-payment-unlocks.md).
  await requireUnlocked(event);
  const recipients = await listRecipients(db(), event.id);
  if (!recipients.some((r) => r.email || r.phone)) {
    throw new ApiError(400, "NO_RECIPIENT_CONTACT", "Add an e-mail address or a phone number for the recipient first.", {
      recipients: "Add an e-mail address or a phone number for the recipient first.",
    });
  }
  const when = at && at.getTime() > Date.now() ? at : null;
  await updateEvent(db(), event.id, { deliveryAt: when });
  await enqueue(
    "event-deliver",
    { eventId: event.id },
    { startAfter: when ?? undefined, singletonKey: `deliver:${event.id}:${when?.toISOString() ?? "now"}` },
  );
  return { scheduledFor: when, waitsForStream: !when && (await streamComing(event)) };
}

/** How often a delivery held for the ladder looks again. */
const STREAM_POLL_MS = 10_000;

/**
 * Whether the current version's ladder (docs/decisions/036) is still being made: it was published
 * moments ago. The recipient opens their link within minutes of it arriving, often on a phone,
 * where the full-size MP4 stalls; so the link waits for the ladder, up to
 * DELIVERY_WAITS_FOR_STREAM_SECONDS after publishing (a failed or slow ladder holds it no longer).
 */
async function streamComing(event: Event) {
  const { VIDEO_LADDER, DELIVERY_WAITS_FOR_STREAM_SECONDS } = env();
  if (!VIDEO_LADDER || !event.publishedMedia) return false;
  const version = await findPublishedMedia(db(), event.publishedMedia);
  return !!version && !version.ladder && Date.now() - version.createdAt.getTime() < DELIVERY_WAITS_FOR_STREAM_SECONDS * 1000;
}

/** The delivery job: each recipient gets the link once per job, then the organiser is told. */
export async function deliverToRecipients(jobId: string, eventId: string) {
  const event = await findEventById(db(), eventId);
  if (!event) return;
  // Refunded since the delivery was scheduled: it does not go out.
  if (!(await eventUnlocked(event))) return;
  // A later reschedule replaced this job's moment: leave it to the newer job.
  if (event.deliveryAt && event.deliveryAt.getTime() > Date.now() + 60_000) return;
  // Held until the video streams: this job hands over to one a little later (keyed by this one,
  // so it is never taken for a second delivery of the same moment).
  if (await streamComing(event)) {
    await enqueue(
      "event-deliver",
      { eventId },
      { startAfter: new Date(Date.now() + STREAM_POLL_MS), singletonKey: `deliver:${event.id}:after:${jobId}` },
    );
    return;
  }
  const recipients = await listRecipients(db(), event.id);
  const headline = headlineOf(event, recipients);
  const link = shareLinksOf(event).recipient;
  const organiser = await findUserById(db(), event.creatorId);
  for (const r of recipients) {
    if (r.email) {
      const email = r.email;
      const mail = renderEmail({
        subject: `A ${PRODUCT_NAME} for you: ${headline}`,
        heading: `${r.firstName}, there's something for you`,
        paragraphs: ["The people who care about you made you a video. Grab a comfy seat and press play."],
        action: { label: "Watch my video", url: link },
        footnote: "This link is just for you. Please keep it private.",
      });
      await deliverOnce(`deliver:${jobId}:${r.id}:email`, "email", email, () => sendMail({ to: email, ...mail }));
    }
    if (r.phone) {
      const phone = r.phone;
      await deliverOnce(`deliver:${jobId}:${r.id}:sms`, "sms", phone, () =>
        sendSms({ to: phone, body: `${r.firstName}, the people who care about you made you a video: ${link}` }),
      );
    }
  }
  await updateEvent(db(), event.id, { deliveredAt: new Date(), status: "delivered" });
  // The group gift card, if there is one, goes with the video.
  await queueGiftPayout(event.id);
  if (organiser) {
    await notify([
      { userId: organiser.id, eventId: event.id, kind: "event.delivered", title: `${headline} was delivered`, url: `/e/${event.uuid}` },
    ]);
  }
}
