import type { Event } from "drizzle/schema";
import { audienceVideoOf } from "~/domain/commerce/unlock";
import { wasDelivered } from "~/domain/event-status";
import { eventUnlocked } from "~/services/commerce/unlock.server";
import type { audienceEventView } from "~/services/events/event-views.server";
import { guestbookMessages } from "~/services/events/guestbook.server";
import { recipientGiftOf } from "~/services/gift-cards/gifts.server";
import { currentVideoOf } from "~/services/render/published-video.server";
import { treesOfEvent } from "~/services/trees/trees-summary.server";
import { uploadLimits } from "~/services/uploads/media-intake.server";

const noMessages: Awaited<ReturnType<typeof guestbookMessages>> = [];

/**
 * The recipient's private page and the view-only page of the event at /e/{uuid}. Until the Chorus
 * is unlocked they show neither its video (no stream, file or poster: not even a signed link to
 * one) nor its guestbook, only a sentence where the video goes (docs/decisions/045).
 */
export async function audiencePage(event: Event, role: "recipient" | "view-only", audience: ReturnType<typeof audienceEventView>) {
  // Reads that depend on nothing but the event, made at once; then those that only an unlocked Chorus shows.
  const [unlocked, gift, trees] = await Promise.all([
    eventUnlocked(event),
    role === "recipient" ? recipientGiftOf(event) : null,
    treesOfEvent(event.id),
  ]);
  const shows = audienceVideoOf({ published: !!audience.publishedMedia, unlocked, delivered: wasDelivered(event) });
  const [video, messages] = await Promise.all([
    shows === "ready" ? currentVideoOf(event) : null,
    unlocked ? guestbookMessages(event) : noMessages,
  ]);
  return {
    kind: role,
    // The API id, for the recipient page's "opened" call.
    id: event.id,
    headline: audience.headline,
    occasion: audience.occasion,
    recipientNames: audience.recipientNames,
    // What shows where the video goes; the video itself only once the Chorus is unlocked, when its
    // full-quality download is open too.
    shows,
    video,
    contributors: audience.contributors,
    thankYouMessage: role === "recipient" ? audience.thankYouMessage : "",
    gift,
    trees,
    uuid: event.uuid,
    limits: uploadLimits(),
    messages,
    timeZone: event.timeZone,
  };
}
