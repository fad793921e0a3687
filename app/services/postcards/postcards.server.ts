import type { Event, Postcard, User } from "drizzle/schema";
import { z } from "zod";
import { canManageEvent } from "~/domain/event-permissions";
import { addressLines, postalAddressInput } from "~/domain/postal-address";
import { POSTCARD_COUNTRIES, POSTCARD_MESSAGE_MAX, POSTCARD_TEMPLATES, postcardTemplate } from "~/domain/postcard";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, badRequest, notFound, parseWith } from "~/lib/http.server";
import { printablePhoto } from "~/media/images.server";
import { listRecipients } from "~/models/event.server";
import { findPostcard, insertPostcard, listPostcardsNeedingAttention, updatePostcard } from "~/models/postcard.server";
import { findPublishedMedia } from "~/models/published-media.server";
import { headlineOf, shareLinksOf } from "~/services/events/event-views.server";
import { openEvent } from "~/services/events/events.server";
import { storage } from "~/services/media/storage.server";
import { openSessionUrl } from "~/services/payments/open-session.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import { fitMessage, type PostcardArt } from "./postcard-art.server";

// Printed postcards (docs/decisions/030-postcards.md): a draft the organiser designs and may change
// until checkout, then a locked card paid through the payment adapter and sent by a job.

export const NOT_FOUND = "There is no such postcard.";
/** A Chorus the user does not manage is answered as one that is not there, whatever was asked of it. */
export const NO_CHORUS = "There is no Chorus with this id.";

const templateId = z
  .string({ error: "Choose a template." })
  .trim()
  .refine((id) => postcardTemplate(id) !== null, `Choose one of: ${POSTCARD_TEMPLATES.map((t) => t.id).join(", ")}.`);
const message = z
  .string()
  .max(POSTCARD_MESSAGE_MAX, `Keep the message under ${POSTCARD_MESSAGE_MAX} characters.`)
  .transform((text) => text.trim())
  .superRefine((text, ctx) => {
    const fit = fitMessage(text);
    if (!fit.fits)
      ctx.addIssue({
        code: "custom",
        message: `The message is too long for the card: ${fit.maxLines} lines fit, about the first ${fit.fittingCharacters} of its ${text.length} characters.`,
      });
  });
const address = postalAddressInput(POSTCARD_COUNTRIES).nullable();

export const newPostcardInput = z.object({
  eventId: z.uuid({ error: "Give the id of the Chorus." }),
  templateId,
  message: message.default(""),
  address: address.optional().transform((a) => a ?? null),
});

export const postcardChanges = z.object({ templateId: templateId.optional(), message: message.optional(), address: address.optional() });

/**
 * The Chorus when `user` manages it; 404 for anyone else, as if it were not there: `message` says
 * what was not found (the Chorus asked for by its id, or the postcard asked for by its own).
 */
async function managedEvent(user: User | null, eventId: string, message = NO_CHORUS) {
  const opened = await openEvent(user, eventId).catch((error: unknown) => {
    throw error instanceof ApiError && error.status === 404 ? notFound(message) : error;
  });
  if (!canManageEvent(opened.viewer.role)) throw notFound(message);
  return opened.event;
}

/** A postcard and its Chorus, when `user` manages the Chorus; 404 otherwise. */
export async function managedPostcard(user: User | null, id: string | undefined) {
  if (!id || !z.uuid().safeParse(id).success) throw notFound(NOT_FOUND);
  const postcard = await findPostcard(db(), id);
  if (!postcard) throw notFound(NOT_FOUND);
  return { postcard, event: await managedEvent(user, postcard.eventId, NOT_FOUND) };
}

export function postcardView(postcard: Postcard) {
  return {
    id: postcard.id,
    eventId: postcard.eventId,
    templateId: postcard.templateId,
    message: postcard.message,
    address: postcard.address,
    addressLines: postcard.address ? addressLines(postcard.address) : [],
    status: postcard.status,
    editable: postcard.status === "draft",
    /** Its last payment page expired unpaid, so it is a draft again. */
    checkoutExpired: postcard.status === "draft" && postcard.checkoutAttempts > 0,
    amount: postcard.amount,
    currency: postcard.currency,
    mailingStatus: postcard.mailingStatus,
    expectedDelivery: postcard.expectedDelivery,
    trackingUrl: postcard.trackingUrl,
    failure: postcard.failure,
    previewUrls: {
      front: `/postcards/${postcard.id}/preview/front.svg`,
      back: `/postcards/${postcard.id}/preview/back.svg`,
      proof: `/postcards/${postcard.id}/proof.pdf`,
    },
  };
}

/** POST /v2/postcards: a new draft on a Chorus the user manages. */
export async function createPostcard(user: User | null, payload: unknown) {
  const input = parseWith(newPostcardInput, payload);
  const event = await managedEvent(user, input.eventId);
  const settings = env();
  const made = await insertPostcard(db(), {
    eventId: event.id,
    creatorId: user!.id,
    templateId: input.templateId,
    message: input.message,
    address: input.address,
    amount: settings.POSTCARD_PRICE,
    currency: settings.POSTCARD_CURRENCY,
  });
  return postcardView(made);
}

const locked = () => new ApiError(409, "POSTCARD_LOCKED", "This postcard is paid for or being paid for, so it can no longer be changed.");

/** PUT /v2/postcards/{id}: changes a draft; a card at or past checkout is locked (409). */
export async function changePostcard(user: User | null, id: string | undefined, payload: unknown) {
  const { postcard } = await managedPostcard(user, id);
  const changes = parseWith(postcardChanges, payload);
  if (postcard.status !== "draft") throw locked();
  return db().transaction(async (tx) => {
    const current = await findPostcard(tx, postcard.id, { forUpdate: true });
    if (current?.status !== "draft") throw locked();
    return postcardView(await updatePostcard(tx, postcard.id, changes));
  });
}

/** GET /v2/postcards/templates/{id}. */
export function postcardTemplateView(id: string | undefined) {
  const template = id ? postcardTemplate(id) : null;
  if (!template) throw notFound("There is no such postcard template.");
  const { id: templateId, name, description, kind } = template;
  return { id: templateId, name, description, kind, size: "4x6" };
}

async function posterOf(event: Event) {
  if (!event.publishedMedia) return null;
  const version = await findPublishedMedia(db(), event.publishedMedia);
  if (!version?.posterKey) return null;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage().read(version.posterKey)) chunks.push(Buffer.from(chunk as Uint8Array));
    // 6.25 in at 300 dpi: the print's resolution.
    return await printablePhoto(Buffer.concat(chunks), 1875);
  } catch {
    return null;
  }
}

/** Everything the card's art needs. */
export async function postcardArt(postcard: Postcard, event: Event): Promise<PostcardArt> {
  const template = postcardTemplate(postcard.templateId) ?? POSTCARD_TEMPLATES[0]!;
  return {
    template,
    headline: headlineOf(event, await listRecipients(db(), event.id)),
    message: postcard.message,
    qrUrl: shareLinksOf(event).recipient,
    poster: template.kind === "poster" ? await posterOf(event) : null,
    address: postcard.address,
  };
}

/**
 * POST /v2/postcards/{id}/checkout: locks the card and opens a payment for it, `{url}`. The payment
 * webhook alone marks it paid (and queues its sending). Pressing Pay again opens the same session;
 * once that one has expired unpaid (the card is a draft again), a new one.
 */
export async function checkoutPostcard(user: User | null, id: string | undefined) {
  const { postcard, event } = await managedPostcard(user, id);
  if (!postcard.address) throw badRequest("Some fields need your attention.", { address: "Give the address the card goes to." });
  if (postcard.status !== "draft" && postcard.status !== "checkout")
    throw new ApiError(409, "POSTCARD_LOCKED", "This postcard is already paid for.");
  // Back to the page already open, when there is one.
  const open = postcard.status === "checkout" ? await openSessionUrl(postcard.checkoutSessionId) : null;
  if (open) return { id: postcard.id, url: open };
  const settings = env();
  const card = await updatePostcard(db(), postcard.id, { status: "checkout" });
  const provider = paymentsProvider();
  try {
    const session = await provider.createPaymentCheckout({
      customerEmail: user!.email,
      clientReferenceId: card.id,
      metadata: { kind: "postcard", postcardId: card.id, eventUuid: event.uuid },
      successUrl: `${settings.APP_URL}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${settings.APP_URL}/e/${event.uuid}/postcards/${card.id}`,
      // A page that expired unpaid is not reopened: each new attempt has a key of its own.
      idempotencyKey: card.checkoutAttempts ? `postcard:${card.id}:${card.checkoutAttempts}` : `postcard:${card.id}`,
      lines: [{ name: "Printed postcard, posted", unitAmount: card.amount, currency: card.currency, quantity: 1 }],
    });
    await updatePostcard(db(), card.id, { paymentProvider: provider.name, checkoutSessionId: session.id });
    return { id: card.id, url: session.url };
  } catch (error) {
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    throw error;
  }
}

/** The staff list: cards paid and not yet sent, failed, or refunded, newest first. */
export async function postcardsForStaff() {
  return (await listPostcardsNeedingAttention(db())).map((card) => ({
    id: card.id,
    status: card.status,
    to: card.address ? `${card.address.name}, ${card.address.country}` : "",
    amount: card.amount,
    currency: card.currency,
    failure: card.failure,
    updatedAt: card.updatedAt.toISOString(),
  }));
}
