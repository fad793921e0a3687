import type { Event } from "drizzle/schema";
import { PRODUCT_NAME } from "~/domain/product";
import { env } from "~/lib/env.server";
import { inviteTokenFor, unsubscribeTokenFor } from "~/lib/invite-token.server";
import { shareLinksOf } from "~/services/events/event-views.server";
import { renderEmail } from "~/services/messaging/email-layout.server";

export interface InvitationContext {
  event: Event;
  rsvp: { id: string; name: string };
  headline: string;
  organiserName: string;
}

export const personalLink = ({ event, rsvp }: InvitationContext) => `${shareLinksOf(event).contribute}?invite=${inviteTokenFor(rsvp.id)}`;
export const unsubscribeLink = ({ rsvp }: Pick<InvitationContext, "rsvp">) =>
  `${env().APP_URL}/unsubscribe/${rsvp.id}?t=${unsubscribeTokenFor(rsvp.id)}`;

const deadlineText = (event: Event) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: event.timeZone }).format(event.deadline);

const footnote = (context: InvitationContext) =>
  `You got this because ${context.organiserName} invited you. Don't want messages about this ${PRODUCT_NAME}? Unsubscribe: ${unsubscribeLink(context)}`;

export function invitationEmail(context: InvitationContext) {
  return renderEmail({
    subject: `${context.organiserName} invited you to ${context.headline}`,
    heading: `Hi ${context.rsvp.name}, you're invited!`,
    paragraphs: [
      `${context.organiserName} is making a group video for ${context.headline}, and would love a photo or a short clip from you.`,
      `It takes two minutes from your phone — no app, no account. Please add yours by ${deadlineText(context.event)}.`,
    ],
    action: { label: "Add my clip", url: personalLink(context) },
    footnote: footnote(context),
  });
}

export function reminderEmail(context: InvitationContext) {
  return renderEmail({
    subject: `Reminder: ${context.headline} — add your clip by ${deadlineText(context.event)}`,
    heading: `Still time to join in, ${context.rsvp.name}`,
    paragraphs: [
      `The video for ${context.headline} closes on ${deadlineText(context.event)}. A photo or a few seconds of video is plenty.`,
    ],
    action: { label: "Add my clip", url: personalLink(context) },
    footnote: footnote(context),
  });
}

export function broadcastEmail(context: InvitationContext, message: string) {
  return renderEmail({
    subject: `A message from ${context.organiserName} about ${context.headline}`,
    heading: `Hi ${context.rsvp.name},`,
    paragraphs: message
      .split(/\n{2,}/)
      .map((p) => p.trim())
      .filter(Boolean),
    action: { label: `Open the ${PRODUCT_NAME}`, url: personalLink(context) },
    footnote: footnote(context),
  });
}

export const invitationSms = (context: InvitationContext) =>
  `${context.organiserName} invited you to add a clip to a group video for ${context.headline}: ${personalLink(context)} (reply STOP or ${unsubscribeLink(context)} to opt out)`;

export const reminderSms = (context: InvitationContext) =>
  `Reminder: the group video for ${context.headline} closes ${deadlineText(context.event)}. Add your clip: ${personalLink(context)}`;
