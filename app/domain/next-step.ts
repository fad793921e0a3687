// The organiser's page opens with what to do next, so on a phone the one thing that moves the
// Chorus forward is on the first screen. The steps follow the organiser's journey: invite,
// arrange and preview, render and publish, pay, deliver, then the recipient's thank-you.

/** Where a Chorus stands, read from its page: plain values, nothing looked up. */
export interface ChorusProgress {
  /** Contributions in the montage (archived ones do not count). */
  contributions: number;
  /** Whether it still takes contributions. */
  collecting: boolean;
  /** The organiser has saved a theme or music choice on the arrange page. */
  arranged: boolean;
  /** A video has been published. */
  published: boolean;
  /** Paid for, or free (docs/decisions/018): delivery is open, and the recipient's link plays it (045). */
  unlocked: boolean;
  /** When delivery is scheduled, as the page shows it. */
  deliveryScheduledFor: string | null;
  delivered: boolean;
  /** The recipient has answered: a thank-you message or video. */
  thanked: boolean;
}

export type NextStepKind = "invite" | "reopen" | "arrange" | "publish" | "pay" | "deliver" | "await-thanks" | "thank-you";

/** A part of the event page (its id), or another page of the Chorus. */
export type NextStepTarget = { section: string } | { page: "arrange" | "checkout" };

export interface NextStep {
  kind: NextStepKind;
  title: string;
  text: string;
  action: { label: string; to: NextStepTarget } | null;
  /** A second, smaller way on (sharing the link besides inviting, for instance). */
  also: { label: string; to: NextStepTarget } | null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** What the organiser should do next with their Chorus. */
export function nextStepOf(progress: ChorusProgress): NextStep {
  if (progress.delivered && progress.published && !progress.unlocked) {
    // Delivered, then refunded in full: the recipient's link no longer plays it (docs/decisions/045).
    return {
      kind: "pay",
      title: "Pay to open it again",
      text: "The payment for this Chorus was refunded, so the recipient's and view-only links no longer play the video. Paying again opens them.",
      action: { label: "Pay and unlock", to: { page: "checkout" } },
      also: null,
    };
  }
  if (progress.delivered) {
    return progress.thanked
      ? {
          kind: "thank-you",
          title: "They said thank you",
          text: "Your Chorus was delivered and the recipient has answered.",
          action: { label: "See the thank-you", to: { section: "thank-you" } },
          also: null,
        }
      : {
          kind: "await-thanks",
          title: "Delivered",
          text: "Your Chorus is with the recipient. Their thank-you will appear on this page when they send one.",
          action: null,
          also: { label: "Share the view-only link", to: { section: "share" } },
        };
  }
  if (progress.published && !progress.unlocked) {
    return {
      kind: "pay",
      title: "Pay to deliver it",
      text: "Your video is published, and only you can watch it for now. Paying opens it on the recipient's and view-only links, and unlocks delivery and the full-quality download.",
      action: { label: "Pay and unlock", to: { page: "checkout" } },
      also: null,
    };
  }
  if (progress.published) {
    return {
      kind: "deliver",
      title: progress.deliveryScheduledFor ? "Delivery is scheduled" : "Deliver it",
      text: progress.deliveryScheduledFor
        ? `It goes to the recipient on ${progress.deliveryScheduledFor}. You can send it now or change the time.`
        : "Your video is published. Send it to the recipient now, or choose when it arrives.",
      action: { label: "Deliver", to: { section: "deliver" } },
      also: null,
    };
  }
  if (progress.contributions > 0) {
    const arriving = `${plural(progress.contributions, "contribution")} so far.`;
    return progress.arranged
      ? {
          kind: "publish",
          title: "Render and publish",
          text: `${arriving} Check the preview, then render and publish the video.`,
          action: { label: "Render and publish", to: { page: "arrange" } },
          also: null,
        }
      : {
          kind: "arrange",
          title: "Arrange and preview",
          text: `${arriving} Choose the order, a theme and music, and watch a preview.`,
          action: { label: "Arrange the video", to: { page: "arrange" } },
          also: progress.collecting ? { label: "Invite more people", to: { section: "invite" } } : null,
        };
  }
  if (!progress.collecting) {
    return {
      kind: "reopen",
      title: "Nothing has arrived yet",
      text: "Collection is closed, so nobody can add to it. Reopen it or move the deadline in Settings, then invite people.",
      action: { label: "Open the settings", to: { section: "settings" } },
      also: null,
    };
  }
  return {
    kind: "invite",
    title: "Invite people",
    text: "Nothing has arrived yet. Invite people by e-mail or text, or share the contributor link wherever your group talks.",
    action: { label: "Invite people", to: { section: "invite" } },
    also: { label: "Share the link", to: { section: "share" } },
  };
}
