// Every kind of background job, declared once: the data it carries, the key that keeps it single and
// how its queue behaves. The queue (queue.server.ts) creates, schedules and works what is here, and
// handlers.server.ts must give each one a handler (the type checks it). To add a job: an entry here,
// a handler there.

type Empty = Record<string, never>;

/**
 * A keyed job's singletonKey: pg-boss's "short" policy keeps one waiting job per key, and one sent
 * without a key would share the empty key with every other, so it is never left to the sender to
 * remember. Made from the job's data by `enqueue`, or, where the key says more than the data (the
 * moment a delivery is for, a render's attempt), named by the sender, whom the type then makes name it.
 */
type JobKey<Data> = ((data: Data) => string) | "sender";

interface JobOptions<Data = never> {
  /** The job is keyed (one waiting job per key, docs/decisions/006), and this is how its key is made. */
  key?: JobKey<Data>;
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
const job = <Data>(options: JobOptions<Data> = {}) => options as JobOptions<Data> & { readonly data?: Data };

/** A keyed job kind whose sender names each job's key (`enqueue`'s type then asks for it). */
const jobKeyedBySender = <Data>(options: Omit<JobOptions<Data>, "key"> = {}) =>
  ({ ...options, key: "sender" }) as JobOptions<Data> & { readonly key: "sender"; readonly data?: Data };

/** Both media lanes (and the queue before them) key a job by its photo or clip: one waits at a time. */
const mediaKey = (data: { mediaId: string }) => `media:${data.mediaId}`;

// Queues whose jobs mostly wait on a mail server or another service run many at a time
// (JOB_MESSAGE_CONCURRENCY, docs/decisions/032); media and renders are held to the machine's cores.
export const JOBS = {
  "rsvp-invite": job<{ rsvpId: string }>({ key: (d) => `invite:${d.rsvpId}`, slots: "JOB_MESSAGE_CONCURRENCY" }),
  "rsvp-reminder": job<{ rsvpId: string; window: string }>({
    key: (d) => `reminder:${d.rsvpId}:${d.window}`,
    slots: "JOB_MESSAGE_CONCURRENCY",
  }),
  // Reminders are found by a sweep rather than scheduled per invitee, so a deadline change needs no bookkeeping.
  "event-reminders": job<Empty>({ schedule: "*/10 * * * *" }),
  "event-broadcast": job<{ eventId: string; message: string }>({ slots: "JOB_MESSAGE_CONCURRENCY" }),
  "event-deliver": jobKeyedBySender<{ eventId: string }>(),
  "event-digest": job<{ eventId: string }>({ key: (d) => `digest:${d.eventId}`, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // The receipt of a payment or a free checkout, queued in the transaction that records the invoice.
  "invoice-receipt": job<{ invoiceId: string }>({ key: (d) => `receipt:${d.invoiceId}`, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // The receipt of a payment with no invoice (a contribution, a postcard, a posted order: decision 048),
  // queued in the transaction that records it.
  "payment-receipt": job<{ receiptId: string }>({ key: (d) => `payment-receipt:${d.receiptId}`, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // A refund told to the person who paid, queued with the refunded total that grew: `ledger` says
  // whether `id` is a payment (a cart's or a membership's, with its invoice) or a receipt.
  "refund-notice": job<{ ledger: "payment" | "receipt"; id: string; refunded: number; previously: number }>({
    key: (d) => `refund:${d.ledger}:${d.id}:${d.refunded}`,
    slots: "JOB_MESSAGE_CONCURRENCY",
  }),
  // The organiser told why staff took their Chorus down, queued in the transaction that does it.
  "event-taken-down-mail": job<{ staffActionId: string }>({
    key: (d) => `taken-down:${d.staffActionId}`,
    slots: "JOB_MESSAGE_CONCURRENCY",
  }),
  // Media processing in two lanes (docs/decisions/015): photos and small clips, large clips.
  "media-small": job<{ mediaId: string }>({ key: mediaKey, deadLetter: "media-dead", slots: "MEDIA_SMALL_CONCURRENCY" }),
  "media-large": job<{ mediaId: string }>({ key: mediaKey, deadLetter: "media-dead", slots: "MEDIA_LARGE_CONCURRENCY" }),
  // Queued before the lanes existed; worked like the large lane until none is left.
  "media-process": job<{ mediaId: string }>({ key: mediaKey }),
  // A media job that failed for good, also when its worker died on the last attempt.
  "media-dead": job<{ mediaId: string }>(),
  "track-process": job<{ trackId: string }>({ key: (d) => d.trackId, deadLetter: "track-dead" }),
  // A track whose processing failed for good, also when its worker died on the last attempt.
  "track-dead": job<{ trackId: string }>(),
  "render-prepare": job<{ eventId: string }>({ key: (d) => d.eventId }),
  // The HLS ladder's pieces of the next render (docs/decisions/036), queued by render-prepare once
  // its pieces are made: a lane of their own, so no Chorus's preparation waits behind them.
  "render-rungs": job<{ eventId: string }>({ key: (d) => d.eventId }),
  // Renders keep their own heartbeat and recovery in render_jobs (recoverStalledRenders), which
  // also resumes from stored pieces: the queue's lease would only run them twice.
  "render-run": jobKeyedBySender<{ renderJobId: string }>({ leased: false }),
  // Renders whose worker died are taken up again by the next sweep (see recoverStalledRenders),
  // which every worker runs with its lease sweep; the schedule is for a queue without workers' sweeps.
  "render-recover": job<Empty>({ schedule: "* * * * *", sweep: true }),
  // A published version's HLS ladder, made right after it is published (docs/decisions/036): keyed by
  // the version, leased so a dead worker's ladder is made again.
  "video-ladder": job<{ publishedMediaId: string }>({ key: (d) => `video-ladder:${d.publishedMediaId}`, leased: true }),
  "uploads-expire": job<Empty>({ schedule: "17 * * * *" }),
  // Rendered pieces nobody has used for a while (RENDER_PIECE_RETENTION_DAYS) leave storage nightly.
  "render-pieces-sweep": job<Empty>({ schedule: "41 3 * * *" }),
  // An event of the local payment service (no STRIPE_SECRET_KEY) on its way to our webhook route,
  // tried again with growing delays until the route takes it, as Stripe retries its webhooks.
  "local-payment-webhook": job<{ eventId: string }>({ key: (d) => d.eventId, slots: "JOB_MESSAGE_CONCURRENCY" }),
  // A local payment page left unpaid, expired at its expires_at with Stripe's checkout.session.expired.
  "local-checkout-expire": job<{ sessionId: string }>({ key: (d) => `local-checkout-expire:${d.sessionId}` }),
  // A local subscription's period end on the real clock: renewed on its card, or ended when it was
  // cancelled to end with its period (a customer on a test clock is moved on by the clock instead).
  "local-subscription-period-end": jobKeyedBySender<{ subscriptionId: string }>(),
  // A group gift card ordered from the vendor once its Chorus is delivered (docs/decisions/023):
  // keyed by the gift, leased so a dead worker's order is taken up again, retried with growing delays.
  "gift-card-payout": job<{ giftId: string }>({ key: (d) => `gift-payout:${d.giftId}`, leased: true }),
  // Every contribution to a gift refunded, when its Chorus is deleted or its card could not be sent.
  "gift-card-refunds": job<{ giftId: string }>({ key: (d) => `gift-refunds:${d.giftId}` }),
  // One contribution paid after its gift's card was ordered, refunded on its own (docs/decisions/028).
  "gift-contribution-refund": job<{ giftContributionId: string }>({
    key: (d) => `gift-contribution-refund:${d.giftContributionId}`,
  }),
  // The part of a paid contribution that did not fit on the card, refunded at once (docs/decisions/046).
  "gift-contribution-overflow-refund": job<{ giftContributionId: string; amount: number }>({
    key: (d) => `gift-contribution-overflow-refund:${d.giftContributionId}`,
  }),
  // Trees ordered from the planting vendor for one paid contribution (docs/decisions/028): keyed and
  // leased by the contribution, so a dead worker's planting is taken up again and planted once.
  "tree-planting": job<{ treeContributionId: string }>({ key: (d) => `tree-planting:${d.treeContributionId}`, leased: true }),
  // Trees that could not be planted, refunded to their contributor.
  "tree-refund": job<{ treeContributionId: string }>({ key: (d) => `tree-refund:${d.treeContributionId}` }),
  // A paid postcard handed to the print service, keyed by the card (its Idempotency-Key there too) and
  // leased so a dead worker's card is taken up again (docs/decisions/030-postcards.md).
  "postcard-send": job<{ postcardId: string }>({ key: (d) => `postcard-send:${d.postcardId}`, leased: true }),
  // A postcard that could not be sent, refunded and its organiser told.
  "postcard-refund": job<{ postcardId: string }>({ key: (d) => `postcard-refund:${d.postcardId}` }),
  // A paid DVD or photo book placed with its fulfilment service (docs/decisions/029): keyed by the
  // order, leased so a dead worker's placement is taken up again, retried with growing delays.
  "mail-order-place": job<{ mailOrderId: string }>({ key: (d) => `mail-order-place:${d.mailOrderId}`, leased: true }),
  // Orders at a fulfilment service and not yet posted are looked at again, and their organisers told.
  "mail-orders-follow": job<Empty>({ schedule: "* * * * *" }),
  // The organiser told that their card was delivered or returned, queued with the state that says so.
  "postcard-mailing-mail": job<{ postcardId: string; status: "delivered" | "returned" }>({
    key: (d) => `postcard-mailing-mail:${d.postcardId}`,
    slots: "JOB_MESSAGE_CONCURRENCY",
  }),
  // Postcards in the post that no webhook has told us about for POSTCARD_REFRESH_HOURS, asked about again.
  "postcards-refresh": job<Empty>({ schedule: "7 * * * *" }),
  // Log-in sessions and unfinished "start a Chorus" drafts past their expiry leave the database.
  "expired-sessions-sweep": job<Empty>({ schedule: "23 4 * * *" }),
} satisfies Record<string, JobOptions<never> & { readonly data?: unknown }>;

export type JobName = keyof typeof JOBS;
export type JobData = { [N in JobName]: NonNullable<(typeof JOBS)[N]["data"]> };
/** Jobs whose sender names the key (the catalogue's `key: "sender"`). */
export type SenderKeyedJob = { [N in JobName]: (typeof JOBS)[N] extends { key: "sender" } ? N : never }[JobName];

/** Queue names in creation order: a dead-letter queue before the queues that name it. */
export const JOB_NAMES = (Object.keys(JOBS) as JobName[]).sort((a, b) => Number(!!JOBS[a].deadLetter) - Number(!!JOBS[b].deadLetter));

export const jobOptions = (name: JobName): JobOptions<unknown> => JOBS[name] as JobOptions<unknown>;

/** Whether jobs of `name` are keyed: its queue keeps one waiting job per key ("short"). */
export const isKeyed = (name: JobName) => jobOptions(name).key !== undefined;

/**
 * The key the catalogue makes for a job of `name` with `data`; undefined for a job that is not keyed
 * or whose sender names its key.
 */
export function jobKey<N extends JobName>(name: N, data: JobData[N]): string | undefined {
  const key = jobOptions(name).key;
  return typeof key === "function" ? key(data) : undefined;
}
