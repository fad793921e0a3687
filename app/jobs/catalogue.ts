// Every kind of background job, declared once: the data it carries and how its queue behaves.
// The queue (queue.server.ts) creates, schedules and works what is here, and handlers.server.ts
// must give each one a handler (the type checks it). To add a job: an entry here, a handler there.

type Empty = Record<string, never>;

interface JobOptions {
  /** Jobs always carry a singletonKey: pg-boss's "short" policy keeps one waiting job per key. */
  keyed?: boolean;
  /** Where a job that failed for good goes (declared in this table too). */
  deadLetter?: string;
  /** Cron expression: the job is sent on this schedule by the processes that work jobs. */
  schedule?: string;
  /**
   * Whether a running job holds a lease its worker renews, so a job whose worker died runs again
   * within half a minute (docs/decisions/015). Renders keep their own heartbeat instead.
   */
  leased?: boolean;
  /**
   * Also run by every worker process's lease sweep, every JOB_SWEEP_SECONDS: a schedule's minute is
   * too coarse for a recovery that must happen within one. Only for kinds whose data is empty.
   */
  sweep?: boolean;
  /** Which setting says how many jobs of this queue one process runs at a time (1 otherwise). */
  slots?: "MEDIA_SMALL_CONCURRENCY" | "MEDIA_LARGE_CONCURRENCY" | "JOB_MESSAGE_CONCURRENCY";
}

/** One job kind: its options, with the data type carried along for JobData. */
const job = <Data>(options: JobOptions = {}) => options as JobOptions & { readonly data?: Data };

// Queues whose jobs mostly wait on a mail server or another service run many at a time
// (JOB_MESSAGE_CONCURRENCY, docs/decisions/032); media and renders are held to the machine's cores.
export const JOBS = {
  "rsvp-invite": job<{ rsvpId: string }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  "rsvp-reminder": job<{ rsvpId: string; window: string }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // Reminders are found by a sweep rather than scheduled per invitee, so a deadline change needs no bookkeeping.
  "event-reminders": job<Empty>({ schedule: "*/10 * * * *" }),
  "event-broadcast": job<{ eventId: string; message: string }>({ slots: "JOB_MESSAGE_CONCURRENCY" }),
  "event-deliver": job<{ eventId: string }>({ keyed: true }),
  "event-digest": job<{ eventId: string }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // The receipt of a payment or a free checkout, queued in the transaction that records the invoice.
  "invoice-receipt": job<{ invoiceId: string }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // The receipt of a payment with no invoice (a contribution, a postcard, a posted order: decision 048),
  // queued in the transaction that records it.
  "payment-receipt": job<{ receiptId: string }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // A refund told to the person who paid, queued with the refunded total that grew: `ledger` says
  // whether `id` is a payment (a cart's or a membership's, with its invoice) or a receipt.
  "refund-notice": job<{ ledger: "payment" | "receipt"; id: string; refunded: number; previously: number }>({
    keyed: true,
    slots: "JOB_MESSAGE_CONCURRENCY",
  }),
  // The organiser told why staff took their Chorus down, queued in the transaction that does it.
  "event-taken-down-mail": job<{ staffActionId: string }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // Media processing in two lanes (docs/decisions/015): photos and small clips, large clips.
  "media-small": job<{ mediaId: string }>({ keyed: true, deadLetter: "media-dead", slots: "MEDIA_SMALL_CONCURRENCY" }),
  "media-large": job<{ mediaId: string }>({ keyed: true, deadLetter: "media-dead", slots: "MEDIA_LARGE_CONCURRENCY" }),
  // Queued before the lanes existed; worked like the large lane until none is left.
  "media-process": job<{ mediaId: string }>({ keyed: true }),
  // A media job that failed for good, also when its worker died on the last attempt.
  "media-dead": job<{ mediaId: string }>(),
  "track-process": job<{ trackId: string }>({ keyed: true, deadLetter: "track-dead" }),
  // A track whose processing failed for good, also when its worker died on the last attempt.
  "track-dead": job<{ trackId: string }>(),
  "render-prepare": job<{ eventId: string }>({ keyed: true }),
  // The HLS ladder's pieces of the next render (docs/decisions/036), queued by render-prepare once
  // its pieces are made: a lane of their own, so no Chorus's preparation waits behind them.
  "render-rungs": job<{ eventId: string }>({ keyed: true }),
  // Renders keep their own heartbeat and recovery in render_jobs (recoverStalledRenders), which
  // also resumes from stored pieces: the queue's lease would only run them twice.
  "render-run": job<{ renderJobId: string }>({ keyed: true, leased: false }),
  // Renders whose worker died are taken up again by the next sweep (see recoverStalledRenders),
  // which every worker runs with its lease sweep; the schedule is for a queue without workers' sweeps.
  "render-recover": job<Empty>({ schedule: "* * * * *", sweep: true }),
  // A published version's HLS ladder, made right after it is published (docs/decisions/036): keyed by
  // the version, leased so a dead worker's ladder is made again.
  "video-ladder": job<{ publishedMediaId: string }>({ keyed: true, leased: true }),
  "uploads-expire": job<Empty>({ schedule: "17 * * * *" }),
  // Rendered pieces nobody has used for a while (RENDER_PIECE_RETENTION_DAYS) leave storage nightly.
  "render-pieces-sweep": job<Empty>({ schedule: "41 3 * * *" }),
  // An event of the local payment service (no STRIPE_SECRET_KEY) on its way to our webhook route,
  // tried again with growing delays until the route takes it, as Stripe retries its webhooks.
  "local-payment-webhook": job<{ eventId: string }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // A local payment page left unpaid, expired at its expires_at with Stripe's checkout.session.expired.
  "local-checkout-expire": job<{ sessionId: string }>({ keyed: true }),
  // A local subscription's period end on the real clock: renewed on its card, or ended when it was
  // cancelled to end with its period (a customer on a test clock is moved on by the clock instead).
  "local-subscription-period-end": job<{ subscriptionId: string }>({ keyed: true }),
  // A group gift card ordered from the vendor once its Chorus is delivered (docs/decisions/023):
  // keyed by the gift, leased so a dead worker's order is taken up again, retried with growing delays.
  "gift-card-payout": job<{ giftId: string }>({ keyed: true, leased: true }),
  // Every contribution to a gift refunded, when its Chorus is deleted or its card could not be sent.
  "gift-card-refunds": job<{ giftId: string }>({ keyed: true }),
  // One contribution paid after its gift's card was ordered, refunded on its own (docs/decisions/028).
  "gift-contribution-refund": job<{ giftContributionId: string }>({ keyed: true }),
  // The part of a paid contribution that did not fit on the card, refunded at once (docs/decisions/046).
  "gift-contribution-overflow-refund": job<{ giftContributionId: string; amount: number }>({ keyed: true }),
  // Trees ordered from the planting vendor for one paid contribution (docs/decisions/028): keyed and
  // leased by the contribution, so a dead worker's planting is taken up again and planted once.
  "tree-planting": job<{ treeContributionId: string }>({ keyed: true, leased: true }),
  // Trees that could not be planted, refunded to their contributor.
  "tree-refund": job<{ treeContributionId: string }>({ keyed: true }),
  // A paid postcard handed to the print service, keyed by the card (its Idempotency-Key there too) and
  // leased so a dead worker's card is taken up again (docs/decisions/030-postcards.md).
  "postcard-send": job<{ postcardId: string }>({ keyed: true, leased: true }),
  // A postcard that could not be sent, refunded and its organiser told.
  "postcard-refund": job<{ postcardId: string }>({ keyed: true }),
  // A paid DVD or photo book placed with its fulfilment service (docs/decisions/029): keyed by the
  // order, leased so a dead worker's placement is taken up again, retried with growing delays.
  "mail-order-place": job<{ mailOrderId: string }>({ keyed: true, leased: true }),
  // Orders at a fulfilment service and not yet posted are looked at again, and their organisers told.
  "mail-orders-follow": job<Empty>({ schedule: "* * * * *" }),
  // The organiser told that their card was delivered or returned, queued with the state that says so.
  "postcard-mailing-mail": job<{ postcardId: string; status: "delivered" | "returned" }>({ keyed: true, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // Postcards in the post that no webhook has told us about for POSTCARD_REFRESH_HOURS, asked about again.
  "postcards-refresh": job<Empty>({ schedule: "7 * * * *" }),
  // Log-in sessions and unfinished "start a Chorus" drafts past their expiry leave the database.
  "expired-sessions-sweep": job<Empty>({ schedule: "23 4 * * *" }),
} satisfies Record<string, JobOptions & { readonly data?: unknown }>;

export type JobName = keyof typeof JOBS;
export type JobData = { [N in JobName]: NonNullable<(typeof JOBS)[N]["data"]> };

/** Queue names in creation order: a dead-letter queue before the queues that name it. */
export const JOB_NAMES = (Object.keys(JOBS) as JobName[]).sort((a, b) => Number(!!JOBS[a].deadLetter) - Number(!!JOBS[b].deadLetter));

export const jobOptions = (name: JobName): JobOptions => JOBS[name];
