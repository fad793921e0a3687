import type { Event, Invoice, Recipient, User } from "drizzle/schema";
import { formatMoney } from "~/domain/commerce/money";
import { formatLongDay, formatMoment, formatShortDay, timeIn } from "~/domain/event-dates";
import { acceptsContributions } from "~/domain/event-permissions";
import { eventStatusOf, wasDelivered } from "~/domain/event-status";
import { nextStepOf } from "~/domain/next-step";
import { timeZoneOptions } from "~/domain/time-zones";
import { dayIn } from "~/domain/zoned-time";
import { db } from "~/lib/db.server";
import { arrangementSaved } from "~/models/arrangement.server";
import { listRecipients } from "~/models/event.server";
import { markRsvpOpened } from "~/models/rsvp.server";
import { chorusInvoiceOf } from "~/services/commerce/invoices.server";
import { keepsakesOf } from "~/services/commerce/keepsakes.server";
import { contributorOfferFor } from "~/services/commerce/promo-codes.server";
import { cartPathOf, eventUnlocked } from "~/services/commerce/unlock.server";
import { audiencePage } from "~/services/events/audience-page.server";
import type { EventKeys } from "~/services/events/event-access.server";
import { type creatorEventView } from "~/services/events/event-views.server";
import { eventViewFor } from "~/services/events/events.server";
import { guestbookMessages } from "~/services/events/guestbook.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import { giftOfEvent, organiserGiftSection } from "~/services/gift-cards/gifts.server";
import { organiserMediaOf } from "~/services/media/media-grid.server";
import type { OrganiserMedia } from "~/services/media/media-view";
import { stockPickerFor, type StockSearch } from "~/services/media/stock-photo-pick.server";
import { currentVideoOf } from "~/services/render/published-video.server";
import { treesOfEvent } from "~/services/trees/trees-summary.server";
import { uploadLimits } from "~/services/uploads/media-intake.server";
import { thankYouVideoOf } from "~/services/uploads/thank-you-video.server";

// The event page (/e/{uuid}): what each viewer sees. Its forms are handled in
// event-page-actions.server.ts.

// ——— What each viewer sees ———

type Invitee = ReturnType<typeof creatorEventView>["rsvps"][number];

const statusLabel = (r: Invitee, timeZone: string) => {
  if (r.unsubscribed) return "Unsubscribed";
  if (r.status === "contributed") return "Contributed";
  if (r.status === "opened") return "Opened";
  if (r.status === "declined") return "Declined";
  return r.inviteSentAt ? `Invited on ${formatShortDay(r.inviteSentAt, timeZone)}` : "Not invited yet";
};

const channelsOf = (r: Invitee) =>
  [r.viaEmail && r.email ? "E-mail" : null, r.viaSms && r.phone ? "Text" : null].filter(Boolean).join(", ");

function creatorPage(
  event: Event,
  view: ReturnType<typeof creatorEventView>,
  recipients: Recipient[],
  media: OrganiserMedia,
  unlocked: boolean,
  invoice: Pick<Invoice, "number" | "total" | "currency"> | null,
) {
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
    recipients: recipients.map((r) => ({
      id: r.id,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email ?? "",
      phone: r.phone ?? "",
    })),
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
      // Delivery is what payment unlocks; a locked Chorus links its cart instead.
      unlocked,
      cartPath: cartPathOf(event),
      // A paid Chorus says so, with what its invoice came to (what was charged, docs/decisions/046).
      paid: event.paid
        ? { invoiceNumber: invoice?.number ?? null, total: invoice ? formatMoney(invoice.total, invoice.currency) : null }
        : null,
    },
    thankYouMessage: view.thankYouMessage,
    media,
  };
}

/** How the page was asked for: the keys in its address, the stock photo search it asks for (if any), and from where. */
export interface EventPageAddress {
  keys: EventKeys;
  stockSearch: StockSearch | null;
  clientIp: string;
  /** The country whose gift cards the organiser asked to see (?giftCountry=), if any. */
  giftCountry?: string | null;
}

/** What the event page at /e/{rawUuid} shows `user` (signed in or not). */
export async function loadEventPage(user: User | null, rawUuid: string | undefined, address: EventPageAddress) {
  const { event, viewer } = await openEventByUuid(user, rawUuid, address.keys);
  // Spec §2.2: everyone but the creator may report the page from the footer.
  const footerReport = viewer.role === "creator" ? null : { eventId: event.id };
  // Only staff open a Chorus taken down: they are reminded everyone else finds it unavailable.
  const takenDown = event.takenDownAt ? { reason: event.takenDownReason ?? "" } : null;
  const view = await eventViewFor(event, viewer);
  if (view.role === "creator") {
    const page = creatorPage(
      event,
      view.event,
      await listRecipients(db(), event.id),
      await organiserMediaOf(event),
      await eventUnlocked(event),
      await chorusInvoiceOf(event),
    );
    // The organiser (and an admin) watch the published video here whether or not it is paid for.
    const video = await currentVideoOf(event);
    // The stock photo picker's search, when the address asks for one (?stock=…&stockPage=…).
    const stock = await stockPickerFor(address.stockSearch, address.clientIp);
    const thankYou = await thankYouVideoOf(event);
    return {
      footerReport,
      takenDown,
      page: {
        ...page,
        video,
        nextStep: nextStepOf({
          contributions: page.media.items.length,
          collecting: page.collecting,
          arranged: await arrangementSaved(db(), event.id),
          published: !!event.publishedMedia,
          unlocked: page.delivery.unlocked,
          deliveryScheduledFor: page.delivery.scheduledFor,
          delivered: wasDelivered(event),
          thanked: !!event.thankYouMessage || !!thankYou,
        }),
        messages: await guestbookMessages(event),
        thankYou,
        stock,
        // The add-ons that deliver a file: each one's download, or its cart (docs/decisions/018).
        keepsakes: await keepsakesOf(event),
        gift: await organiserGiftSection(event, address.giftCountry ?? null),
        trees: await treesOfEvent(event.id),
      },
    };
  }
  if (view.role === "public") {
    if (viewer.rsvp) await markRsvpOpened(db(), viewer.rsvp.id);
    const open = view.event;
    // The recipient's thank-you is for the people it thanks: invitees recognised by their link or account.
    const thankYou = viewer.rsvp ? await thankYouVideoOf(event) : null;
    const recipientNames = open.recipientNames ?? "the recipient";
    if (!view.contributor) {
      return {
        footerReport,
        takenDown,
        page: {
          kind: "public" as const,
          headline: open.headline,
          occasion: open.occasion,
          thankYou,
          thankYouFrom: recipientNames,
          offer: await contributorOfferFor(viewer.rsvp),
        },
      };
    }
    return {
      footerReport,
      takenDown,
      page: {
        kind: "contributor" as const,
        headline: open.headline,
        occasion: open.occasion,
        message: open.message,
        prompts: open.prompts,
        deadline: formatLongDay(event.deadline, event.timeZone),
        greeting: viewer.rsvp?.name ?? null,
        uuid: event.uuid,
        guestbook: event.guestbook,
        // Passed on with uploads so they count as this invitee's contribution.
        invite: viewer.rsvp ? (address.keys.invite ?? null) : null,
        limits: uploadLimits(),
        thankYou,
        thankYouFrom: recipientNames,
        // offer: an invitee who has contributed gets a code for a Chorus of their own (spec §3); the gift pot; the trees.
        ...(await contributorExtras(event, viewer.rsvp)),
      },
    };
  }
  return { footerReport, takenDown, page: await audiencePage(event, view.role, view.event) };
}

/** The contributor's offer, the gift pot and the trees: read at once, in the order the page shows them. */
async function contributorExtras(event: Event, rsvp: Parameters<typeof contributorOfferFor>[0]) {
  const [offer, gift, trees] = await Promise.all([contributorOfferFor(rsvp), giftOfEvent(event), treesOfEvent(event.id)]);
  return { offer, gift, trees };
}
