import { sweepExpiredSessions } from "~/services/accounts/auth.server";
import { abandonTrack, processTrack } from "~/services/arrange/tracks.server";
import { sendInvoiceReceipt } from "~/services/commerce/invoices.server";
import { sendPaymentReceipt } from "~/services/commerce/receipts.server";
import { sendRefundNotice } from "~/services/commerce/refund-notices.server";
import { sendContributionDigest } from "~/services/events/digest.server";
import { deliverToRecipients } from "~/services/events/event-delivery.server";
import { payOutGift } from "~/services/gift-cards/payout.server";
import { refundGiftContributions, refundGiftOverflow, refundLateGiftContribution } from "~/services/gift-cards/refunds.server";
import { sendBroadcast } from "~/services/invitations/broadcast.server";
import { sendInvitation } from "~/services/invitations/invitations.server";
import { sendReminder, sweepReminders } from "~/services/invitations/reminders.server";
import { followMailOrders, placeMailOrder } from "~/services/mail-orders/fulfilment.server";
import { abandonMedia, processMedia } from "~/services/media/media-processing.server";
import { expireLocalCheckout } from "~/services/payments/local/hosted.server";
import { endLocalSubscriptionPeriod } from "~/services/payments/local/subscriptions.server";
import { deliverLocalPaymentEvent } from "~/services/payments/local/webhook-delivery.server";
import { mailMailingNews, refreshStalePostcards, refundPostcard, sendPostcard } from "~/services/postcards/sending.server";
import { prepareEventPieces, prepareEventRungPieces } from "~/services/render/piece-preparation.server";
import { recoverStalledRenders, runRenderJob } from "~/services/render/render-jobs.server";
import { sweepUnusedRenderPieces } from "~/services/render/render-pieces.server";
import { makeVideoLadder } from "~/services/render/video-ladder.server";
import { sendTakeDownMail } from "~/services/staff/moderation.server";
import { plantTrees } from "~/services/trees/planting.server";
import { refundTreeContribution } from "~/services/trees/tree-refunds.server";
import { expireUploads } from "~/services/uploads/upload-expiry.server";
import type { JobHandlers } from "./queue.server";

/** What each kind of job does. Handlers are idempotent: a retry never sends a message twice. */
export const jobHandlers: JobHandlers = {
  "rsvp-invite": ({ id, data }) => sendInvitation(id, data.rsvpId),
  "rsvp-reminder": ({ data }) => sendReminder(data.rsvpId, data.window),
  "event-reminders": async () => {
    await sweepReminders();
  },
  "event-broadcast": ({ id, data }) => sendBroadcast(id, data.eventId, data.message),
  "event-deliver": ({ id, data }) => deliverToRecipients(id, data.eventId),
  "event-digest": ({ id, data }) => sendContributionDigest(id, data.eventId),
  "invoice-receipt": ({ data }) => sendInvoiceReceipt(data.invoiceId),
  "payment-receipt": ({ data }) => sendPaymentReceipt(data.receiptId),
  "refund-notice": ({ data }) => sendRefundNotice(data),
  "event-taken-down-mail": ({ data }) => sendTakeDownMail(data.staffActionId),
  "media-small": ({ id, data, finalAttempt, startedOn }) =>
    processMedia(data.mediaId, { finalAttempt, job: { name: "media-small", id, startedOn } }),
  "media-large": ({ id, data, finalAttempt, startedOn }) =>
    processMedia(data.mediaId, { finalAttempt, job: { name: "media-large", id, startedOn } }),
  "media-process": ({ id, data, finalAttempt, startedOn }) =>
    processMedia(data.mediaId, { finalAttempt, job: { name: "media-process", id, startedOn } }),
  "media-dead": ({ data }) => abandonMedia(data.mediaId),
  "track-process": ({ id, data, finalAttempt, startedOn }) =>
    processTrack(data.trackId, { finalAttempt, job: { name: "track-process", id, startedOn } }),
  "track-dead": ({ data }) => abandonTrack(data.trackId),
  "render-prepare": async ({ data }) => {
    await prepareEventPieces(data.eventId);
  },
  "render-rungs": async ({ data }) => {
    await prepareEventRungPieces(data.eventId);
  },
  "render-run": ({ data, finalAttempt }) => runRenderJob(data.renderJobId, { finalAttempt }),
  "render-recover": async () => {
    await recoverStalledRenders();
  },
  "video-ladder": ({ id, data, startedOn }) => makeVideoLadder(data.publishedMediaId, { name: "video-ladder", id, startedOn }),
  "uploads-expire": async () => {
    await expireUploads();
  },
  "render-pieces-sweep": async () => {
    await sweepUnusedRenderPieces();
  },
  "expired-sessions-sweep": () => sweepExpiredSessions(),
  "local-payment-webhook": ({ data }) => deliverLocalPaymentEvent(data.eventId),
  "postcard-mailing-mail": ({ data }) => mailMailingNews(data.postcardId, data.status),
  "local-checkout-expire": ({ data }) => expireLocalCheckout(data.sessionId),
  "local-subscription-period-end": ({ data }) => endLocalSubscriptionPeriod(data.subscriptionId),
  "gift-card-payout": ({ data, finalAttempt }) => payOutGift(data.giftId, { finalAttempt }),
  "gift-card-refunds": ({ data }) => refundGiftContributions(data.giftId),
  "gift-contribution-refund": ({ data }) => refundLateGiftContribution(data.giftContributionId),
  "gift-contribution-overflow-refund": ({ data }) => refundGiftOverflow(data.giftContributionId, data.amount),
  "tree-planting": ({ data, finalAttempt }) => plantTrees(data.treeContributionId, { finalAttempt }),
  "tree-refund": ({ data }) => refundTreeContribution(data.treeContributionId),
  "postcard-send": ({ data, finalAttempt }) => sendPostcard(data.postcardId, { finalAttempt }),
  "postcard-refund": ({ data }) => refundPostcard(data.postcardId),
  "mail-order-place": ({ data, finalAttempt }) => placeMailOrder(data.mailOrderId, { finalAttempt }),
  "mail-orders-follow": async () => {
    await followMailOrders();
  },
  "postcards-refresh": async () => {
    await refreshStalePostcards();
  },
};
