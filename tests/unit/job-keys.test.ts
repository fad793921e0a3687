import { describe, expect, test } from "vitest";
import { isKeyed, JOB_NAMES, jobKey, type JobData, type JobName } from "~/jobs/catalogue";
import type { enqueue as enqueueJob } from "~/jobs/queue.server";

// The keys jobs were sent with before the catalogue made them: a changed key would let a second job
// of the same thing wait beside the first (pg-boss's "short" policy keeps one per key).
const KEYS: { [N in JobName]?: [JobData[N], string] } = {
  "rsvp-invite": [{ rsvpId: "r1" }, "invite:r1"],
  "rsvp-reminder": [{ rsvpId: "r1", window: "3d" }, "reminder:r1:3d"],
  "event-digest": [{ eventId: "e1" }, "digest:e1"],
  "invoice-receipt": [{ invoiceId: "i1" }, "receipt:i1"],
  "payment-receipt": [{ receiptId: "p1" }, "payment-receipt:p1"],
  "refund-notice": [{ ledger: "receipt", id: "p1", refunded: 500, previously: 0 }, "refund:receipt:p1:500"],
  "event-taken-down-mail": [{ staffActionId: "s1" }, "taken-down:s1"],
  "media-small": [{ mediaId: "m1" }, "media:m1"],
  "media-large": [{ mediaId: "m1" }, "media:m1"],
  "media-process": [{ mediaId: "m1" }, "media:m1"],
  "track-process": [{ trackId: "t1" }, "t1"],
  "render-prepare": [{ eventId: "e1" }, "e1"],
  "render-rungs": [{ eventId: "e1" }, "e1"],
  "video-ladder": [{ publishedMediaId: "v1" }, "video-ladder:v1"],
  "local-payment-webhook": [{ eventId: "evt_1" }, "evt_1"],
  "local-checkout-expire": [{ sessionId: "cs_1" }, "local-checkout-expire:cs_1"],
  "gift-card-payout": [{ giftId: "g1" }, "gift-payout:g1"],
  "gift-card-refunds": [{ giftId: "g1" }, "gift-refunds:g1"],
  "gift-contribution-refund": [{ giftContributionId: "c1" }, "gift-contribution-refund:c1"],
  "gift-contribution-overflow-refund": [{ giftContributionId: "c1", amount: 300 }, "gift-contribution-overflow-refund:c1"],
  "tree-planting": [{ treeContributionId: "c1" }, "tree-planting:c1"],
  "tree-refund": [{ treeContributionId: "c1" }, "tree-refund:c1"],
  "postcard-send": [{ postcardId: "p1" }, "postcard-send:p1"],
  "postcard-refund": [{ postcardId: "p1" }, "postcard-refund:p1"],
  "mail-order-place": [{ mailOrderId: "o1" }, "mail-order-place:o1"],
  "postcard-mailing-mail": [{ postcardId: "p1", status: "delivered" }, "postcard-mailing-mail:p1"],
};

/** Keyed kinds whose sender names each key: the key says more than the job's data. */
const KEYED_BY_SENDER: JobName[] = ["event-deliver", "render-run", "local-subscription-period-end"];

describe("job keys", () => {
  test.each(Object.entries(KEYS))("a %s job is keyed as it always was", (name, [data, key]) => {
    expect(jobKey(name as JobName, data)).toBe(key);
  });

  test("every keyed job kind has its key made by the catalogue or named by its sender, and no other kind has one", () => {
    const keyed = JOB_NAMES.filter(isKeyed).sort();
    expect(keyed).toEqual([...Object.keys(KEYS), ...KEYED_BY_SENDER].sort());
    for (const name of KEYED_BY_SENDER) expect(jobKey(name, {} as never)).toBeUndefined();
    expect(jobKey("event-broadcast", { eventId: "e1", message: "hello" })).toBeUndefined();
  });

  test("a keyed job cannot be sent without its data, with a key of its own where the catalogue makes one, or without the key its sender must name", () => {
    type Enqueue = typeof enqueueJob;
    const send = (enqueue: Enqueue) => [
      // @ts-expect-error the job's data is what its key is made of
      enqueue("render-prepare"),
      // @ts-expect-error the data must be the job's own
      enqueue("render-prepare", { renderJobId: "r1" }),
      // @ts-expect-error the catalogue makes this job's key
      enqueue("gift-card-payout", { giftId: "g1" }, { singletonKey: "gift-payout:g1" }),
      // @ts-expect-error a render's run is keyed by its sender, who must name the key
      enqueue("render-run", { renderJobId: "r1" }),
      enqueue("render-run", { renderJobId: "r1" }, { singletonKey: "r1" }),
      enqueue("gift-card-payout", { giftId: "g1" }),
    ];
    expect(send).toBeTypeOf("function");
  });
});
