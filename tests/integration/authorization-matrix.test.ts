import crypto from "node:crypto";
import type { Event, User } from "drizzle/schema";
import { announcements, events, media, users } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { hashToken } from "~/lib/tokens.server";
import { insertAnnouncement } from "~/models/announcement.server";
import { insertEventReport, setEventTakenDown } from "~/models/event-report.server";
import { findEventById, insertRecipient, updateEvent } from "~/models/event.server";
import { upsertGift } from "~/models/gift.server";
import { insertMedia } from "~/models/media.server";
import { insertNotifications } from "~/models/notification.server";
import { insertPromoCode } from "~/models/promo-code.server";
import { publishVersion } from "~/models/published-media.server";
import { insertRenderJob, updateRenderJob } from "~/models/render-job.server";
import { insertRsvp } from "~/models/rsvp.server";
import { findThemeBySlug } from "~/models/theme.server";
import { insertTrack } from "~/models/track.server";
import { findProfileOfUser } from "~/models/user-profile.server";
import { openCartOf } from "~/services/commerce/carts.server";
import type { RunningServer } from "../../server";
import { createUser, loggedInUser, PASSWORD, uniqueEmail } from "../support/accounts";
import { createPaidTestEvent, createTestEvent } from "../support/events";
import { apiRoutes, type RouteCall } from "../support/hostile-requests";
import { TestClient } from "../support/http-client";
import { grantProducts, payThroughLocalService } from "../support/payments";
import { startTestServer } from "../support/test-server";

const KINDS = ["anonymous", "another user", "contributor", "recipient", "view-only", "creator", "editor", "admin"] as const;
type Kind = (typeof KINDS)[number];

let server: RunningServer;
let event: Event;
let creatorUser: User;
let cartId: string;
let promoCode: string;
let otherEvent: Event;
/** A contribution to another Chorus of the same organiser (its original is not stored), sent from the contributor's account. */
let mediaId: string;
/** A guestbook Chorus of the same organiser, with its printable keepsake bought. */
let guestbookEvent: Event;
/** The Chorus `mediaId` belongs to. */
let mediaEvent: Event;
/** A Chorus of the same organiser with a published video: something to order by post, a version to restore. */
let publishedEvent: Event;
let publishedVersionId: string;
/** The built-in theme a theme of one's own starts from. */
let baseThemeId: string;
const clients = {} as Record<Kind, TestClient>;
/** The account behind each logged-in kind of viewer. */
const accounts = {} as Record<Kind, User>;

/** The keys a viewer kind carries in the address of event calls. */
const keysOf = (kind: Kind) =>
  kind === "recipient" ? `?privateKey=${event.privateKey}` : kind === "view-only" ? `?viewKey=${event.viewKey}` : "";

const loggedIn = (role?: "user" | "editor" | "admin") => loggedInUser(server.url, role);

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
  const creator = await loggedIn();
  // Paid for, so delivering it is allowed to those who manage it.
  event = await createPaidTestEvent(creator.user);
  // Someone else's event: nothing of it may appear in any answer below.
  otherEvent = await createTestEvent(await createUser());
  await insertRecipient(db(), event.id, { firstName: "Deliverable", lastName: "", email: uniqueEmail("recipient"), phone: null });
  const contributor = await loggedIn();
  await insertRsvp(db(), {
    eventId: event.id,
    name: "Contributor",
    email: contributor.user.email,
    phone: null,
    viaEmail: true,
    viaSms: false,
  });
  creatorUser = creator.user;
  mediaEvent = await createTestEvent(creator.user);
  mediaId = (
    await insertMedia(db(), {
      eventId: mediaEvent.id,
      purpose: "contribution",
      originalKey: `events/${mediaEvent.id}/uploads/matrix`,
      originalName: "clip.mp4",
      mimeType: "video/mp4",
      sizeBytes: 1,
      uploaderId: contributor.user.id,
      uploadId: `matrix-${mediaEvent.id}`,
    })
  ).id;
  await grantProducts(event, ["originals-zip"]);
  guestbookEvent = await createPaidTestEvent(creator.user, { guestbook: true });
  await grantProducts(guestbookEvent, ["guestbook-book"]);
  cartId = (await openCartOf(event)).id;
  await upsertGift(db(), event.id, {
    country: "US",
    productId: "LOCAL-COFFEE-USD",
    productName: "Morning Roast",
    currency: "USD",
    minAmount: 500,
    maxAmount: 1_000_000,
    targetAmount: null,
  });
  promoCode = (await insertPromoCode(db(), { code: `MATRIX-${event.eventId}`, kind: "percent", value: 10 })).code;
  publishedEvent = await createTestEvent(creator.user);
  publishedVersionId = (
    await publishVersion(db(), {
      eventId: publishedEvent.id,
      renderJobId: null,
      videoKey: `missing/${publishedEvent.id}.mp4`,
      posterKey: null,
      durationSeconds: 10,
      width: 1280,
      height: 720,
      sizeBytes: 1000,
      publishedById: creator.user.id,
    })
  ).version.id;
  baseThemeId = (await findThemeBySlug(db(), "golden-hour"))!.id;
  const anotherUser = await loggedIn();
  const editor = await loggedIn("editor");
  const admin = await loggedIn("admin");
  clients.creator = creator.client;
  clients.contributor = contributor.client;
  clients["another user"] = anotherUser.client;
  clients.editor = editor.client;
  clients.admin = admin.client;
  Object.assign(accounts, {
    creator: creator.user,
    contributor: contributor.user,
    "another user": anotherUser.user,
    editor: editor.user,
    admin: admin.user,
  });
  clients.anonymous = new TestClient(server.url);
  clients.recipient = new TestClient(server.url);
  clients["view-only"] = new TestClient(server.url);
  // A server, five accounts and a dozen Choruses: on two cores shared with other test files this
  // can take longer than the project's two minutes for a hook.
}, 300_000);
afterAll(() => server?.close());

interface Case {
  call: string;
  allowed: Kind[];
  request: (kind: Kind) => Promise<{ method: string; path: string; body?: unknown }>;
  /**
   * For a call that needs its item in a state only a worker, an editor or a payment brings about
   * (a photo edited, an upscale to review, a finished render): those allowed pass the permission
   * check and are answered on the item's state, so they get anything but a refusal — no 401, no 403,
   * and no 404 whose message matches this one (the item "does not exist" to whoever may not see it).
   */
  reaches?: RegExp;
  /** Undoes what the call did to the viewer's own session, for the calls after it. */
  after?: (kind: Kind) => Promise<void>;
}

const managers: Kind[] = ["creator", "admin"];
const loggedInKinds: Kind[] = ["another user", "contributor", "creator", "editor", "admin"];
const everyone: Kind[] = [...KINDS];

async function freshRecipientId() {
  return (await insertRecipient(db(), event.id, { firstName: "Spare", lastName: "", email: null, phone: null })).id;
}
/** A cart that costs nothing (a Get Well Chorus of the same organiser), to be settled by whoever may. */
async function freshFreeCartId() {
  return (await openCartOf(await createTestEvent(creatorUser, { occasion: "getwell" }))).id;
}

/** A cart of a paid occasion's Chorus not paid for yet: something to pay. */
async function freshUnpaidCartId() {
  return (await openCartOf(await createTestEvent(creatorUser))).id;
}

/**
 * A failed render of a Chorus of its own that already has a render waiting: trying it again is a
 * valid request that queues nothing more (the waiting render is the answer).
 */
async function freshFailedRenderId() {
  const chorus = await createTestEvent(await createUser());
  const failed = await insertRenderJob(db(), { eventId: chorus.id, requestedById: null, publishWhenDone: false, resolution: "720p" });
  await updateRenderJob(db(), failed.id, { status: "failed", error: "Matrix", finishedAt: new Date() });
  await insertRenderJob(db(), { eventId: chorus.id, requestedById: null, publishWhenDone: false, resolution: "720p" });
  return failed.id;
}

/** A delivered Chorus of the same organiser with a gift card on: one whose gift is due to be sent. */
async function freshDeliveredGiftEventId() {
  const delivered = await createTestEvent(creatorUser);
  await updateEvent(db(), delivered.id, { deliveredAt: new Date(), status: "delivered" });
  await upsertGift(db(), delivered.id, {
    country: "US",
    productId: "LOCAL-COFFEE-USD",
    productName: "Morning Roast",
    currency: "USD",
    minAmount: 500,
    maxAmount: 10_000,
    targetAmount: null,
  });
  return delivered.id;
}

async function freshRsvpId() {
  return (
    await insertRsvp(db(), { eventId: event.id, name: "Spare", email: uniqueEmail("spare"), phone: null, viaEmail: true, viaSms: false })
  ).id;
}

/** A contribution of the contributor's to `mediaEvent`, on its own, to be changed or archived by one viewer. */
async function freshMediaId(changes: { archived?: boolean; uploadToken?: string } = {}) {
  const row = await insertMedia(db(), {
    eventId: mediaEvent.id,
    purpose: "contribution",
    originalKey: `events/${mediaEvent.id}/uploads/matrix-${crypto.randomUUID()}`,
    originalName: "photo.jpg",
    mimeType: "image/jpeg",
    sizeBytes: 1,
    uploaderId: changes.uploadToken ? null : accounts.contributor.id,
    uploadId: `matrix-${crypto.randomUUID()}`,
  });
  if (changes.archived || changes.uploadToken) {
    await db()
      .update(media)
      .set({
        archivedAt: changes.archived ? new Date() : null,
        uploadTokenHash: changes.uploadToken ? hashToken(changes.uploadToken) : null,
      })
      .where(eq(media.id, row.id));
  }
  return row;
}

/** A render waiting in a Chorus of the organiser's: asking for a render of it again answers with this one. */
async function freshWaitingRender() {
  const chorus = await createTestEvent(creatorUser);
  const job = await insertRenderJob(db(), { eventId: chorus.id, requestedById: null, publishWhenDone: false, resolution: "720p" });
  return { chorus, job };
}

/** A theme of the organiser's own, made from a built-in one. */
async function freshThemeId(archived = false) {
  const id = (await clients.creator.post("/api/v2/themes", { basedOn: baseThemeId })).body.data.id as string;
  if (archived) await clients.creator.delete(`/api/v2/themes/${id}`);
  return id;
}

async function freshTrackId() {
  return (await insertTrack(db(), { ownerId: creatorUser.id, title: "Matrix tune", originalName: "tune.mp3", sizeBytes: 10 })).id;
}

async function freshPostcardId() {
  const made = await clients.creator.post("/api/v2/postcards", { eventId: event.id, templateId: "confetti", message: "Happy day!" });
  return made.body.data.id as string;
}

async function freshNotificationId() {
  const [row] = await insertNotifications(db(), [{ userId: creatorUser.id, eventId: event.id, kind: "matrix", title: "Matrix" }]);
  return row!.id;
}

/** A payment page opened by the organiser's browser (the trees of `event`): its session id. */
async function organisersCheckoutSession() {
  const started = await clients.creator.post("/api/v2/tree/contributions", {
    eventUuid: event.uuid,
    name: "Organiser",
    email: creatorUser.email,
    quantity: 1,
  });
  return new URL(started.body.data.url as string).pathname.split("/").pop()!;
}

const POSTAL_ADDRESS = { name: "Ana Silva", line1: "1 Main St", city: "Springfield", region: "il", postalCode: "62701", country: "us" };
const MEDIA_REFUSAL = /There is no photo or clip with this id/;
const staffWithEditRights: Kind[] = ["creator", "editor", "admin"];
const uploaderAndOrganiser: Kind[] = ["contributor", "creator", "editor", "admin"];

const CASES: Case[] = [
  { call: "GET /api/event/{id}", allowed: everyone, request: async (k) => ({ method: "GET", path: `/api/event/${event.id}${keysOf(k)}` }) },
  {
    call: "PUT /api/v2/events/{id} (title)",
    allowed: managers,
    request: async (k) => ({ method: "PUT", path: `/api/v2/events/${event.id}${keysOf(k)}`, body: { title: "A new title" } }),
  },
  {
    call: "PUT /api/v2/events/{id} (thank-you)",
    allowed: ["recipient"],
    request: async (k) => ({ method: "PUT", path: `/api/v2/events/${event.id}${keysOf(k)}`, body: { thankYouMessage: "Thanks!" } }),
  },
  {
    call: "POST /api/v2/events/{id}/opened",
    allowed: ["recipient"],
    request: async (k) => ({ method: "POST", path: `/api/v2/events/${event.id}/opened${keysOf(k)}` }),
  },
  {
    call: "POST /api/v2/events/{id}/report",
    allowed: everyone,
    request: async (k) => ({ method: "POST", path: `/api/v2/events/${event.id}/report${keysOf(k)}`, body: { reason: "test" } }),
  },
  {
    call: "POST /api/v2/events/{id}/deliver",
    allowed: managers,
    request: async (k) => ({
      method: "POST",
      path: `/api/v2/events/${event.id}/deliver${keysOf(k)}`,
      body: { at: new Date(Date.now() + 86_400_000 * 5).toISOString() },
    }),
  },
  { call: "GET /api/events", allowed: loggedInKinds, request: async () => ({ method: "GET", path: "/api/events" }) },
  {
    call: "GET /api/v2/events/contributed",
    allowed: loggedInKinds,
    request: async () => ({ method: "GET", path: "/api/v2/events/contributed" }),
  },
  {
    call: "POST /api/v2/recipients",
    allowed: managers,
    request: async () => ({ method: "POST", path: "/api/v2/recipients", body: { eventId: event.id, firstName: "New" } }),
  },
  {
    call: "PUT /api/v2/recipients/{id}",
    allowed: managers,
    request: async () => ({ method: "PUT", path: `/api/v2/recipients/${await freshRecipientId()}`, body: { firstName: "Renamed" } }),
  },
  {
    call: "DELETE /api/v2/recipients/{id}",
    allowed: managers,
    request: async () => ({ method: "DELETE", path: `/api/v2/recipients/${await freshRecipientId()}` }),
  },
  {
    call: "POST /api/v2/rsvps",
    allowed: managers,
    request: async () => ({
      method: "POST",
      path: "/api/v2/rsvps",
      body: { eventId: event.id, name: "Invitee", email: uniqueEmail("invitee") },
    }),
  },
  {
    call: "PUT /api/v2/rsvps/{id}",
    allowed: managers,
    request: async () => ({ method: "PUT", path: `/api/v2/rsvps/${await freshRsvpId()}`, body: { name: "Renamed" } }),
  },
  {
    call: "POST /api/v2/rsvps/{id}/invite",
    allowed: managers,
    request: async () => ({ method: "POST", path: `/api/v2/rsvps/${await freshRsvpId()}/invite` }),
  },
  {
    call: "POST /api/mail/contributors",
    allowed: managers,
    request: async () => ({ method: "POST", path: "/api/mail/contributors", body: { eventId: event.id } }),
  },
  {
    call: "POST /api/mail/broadcast",
    allowed: managers,
    request: async () => ({ method: "POST", path: "/api/mail/broadcast", body: { eventId: event.id, message: "Hello" } }),
  },
  {
    call: "GET /e/{uuid}/originals.zip",
    allowed: managers,
    request: async (k) => ({ method: "GET", path: `/e/${event.uuid}/originals.zip${keysOf(k)}` }),
  },
  {
    call: "GET /e/{uuid}/guestbook.pdf",
    allowed: managers,
    request: async () => ({ method: "GET", path: `/e/${guestbookEvent.uuid}/guestbook.pdf` }),
  },
  {
    call: "POST /api/v2/carts",
    allowed: managers,
    request: async () => ({ method: "POST", path: "/api/v2/carts", body: { eventId: event.id } }),
  },
  { call: "GET /api/v2/carts/{id}", allowed: managers, request: async () => ({ method: "GET", path: `/api/v2/carts/${cartId}` }) },
  {
    call: "PUT /api/v2/carts/{id}",
    allowed: managers,
    request: async () => ({ method: "PUT", path: `/api/v2/carts/${cartId}`, body: { selected: ["premium"], billingCountry: "FR" } }),
  },
  {
    call: "POST /api/v2/carts/{id}/finalize",
    allowed: managers,
    request: async () => ({ method: "POST", path: `/api/v2/carts/${await freshFreeCartId()}/finalize` }),
  },
  {
    call: "POST /api/v2/stripe/create-checkout-session",
    allowed: managers,
    request: async () => ({ method: "POST", path: "/api/v2/stripe/create-checkout-session", body: { cartId: await freshUnpaidCartId() } }),
  },
  {
    call: "GET /api/v2/stripe/available-products/{id}",
    allowed: managers,
    request: async () => ({ method: "GET", path: `/api/v2/stripe/available-products/${event.id}` }),
  },
  {
    call: "GET /api/v2/promo-codes/check/{code}",
    allowed: loggedInKinds,
    request: async () => ({ method: "GET", path: `/api/v2/promo-codes/check/${promoCode}` }),
  },
  {
    call: "GET /api/v2/promo-codes/check/{code}?eventId=",
    allowed: managers,
    request: async () => ({ method: "GET", path: `/api/v2/promo-codes/check/${promoCode}?eventId=${event.id}` }),
  },
  {
    call: "GET /api/v2/promo-codes/user/{id}",
    allowed: ["creator", "editor", "admin"],
    request: async () => ({ method: "GET", path: `/api/v2/promo-codes/user/${creatorUser.id}` }),
  },
  { call: "GET /api/v2/invoices", allowed: loggedInKinds, request: async () => ({ method: "GET", path: "/api/v2/invoices" }) },
  {
    call: "POST /api/v2/subscriptions/checkout",
    allowed: loggedInKinds,
    request: async () => ({ method: "POST", path: "/api/v2/subscriptions/checkout", body: { plan: "vip-monthly" } }),
  },
  {
    call: "GET /api/v2/geo-countries",
    allowed: everyone,
    request: async () => ({ method: "GET", path: "/api/v2/geo-countries?sortBy=name" }),
  },
  {
    call: "POST /api/admin/renderjobs/{id}/retry",
    allowed: ["admin"],
    request: async () => ({ method: "POST", path: `/api/admin/renderjobs/${await freshFailedRenderId()}/retry` }),
  },
  {
    // Spec §6: video package compression is an admin-only route; the organiser of even a paid Chorus
    // has its own downloads (docs/decisions/045), not staff's package.
    call: "GET /api/admin/choruspackage/{id}",
    allowed: ["admin"],
    request: async () => ({ method: "GET", path: `/api/admin/choruspackage/${event.id}` }),
  },
  {
    call: "GET /api/v2/tremendous/products",
    allowed: everyone,
    request: async () => ({ method: "GET", path: "/api/v2/tremendous/products?country=US" }),
  },
  {
    // Anyone who can open the Chorus may chip into its gift, but not through the recipient's or a view-only link.
    call: "POST /api/v2/tremendous/contributions",
    allowed: ["anonymous", "another user", "contributor", "creator", "editor", "admin"],
    request: async (k) => ({
      method: "POST",
      path: `/api/v2/tremendous/contributions${keysOf(k)}`,
      body: { eventUuid: event.uuid, name: "Matrix", email: "matrix@example.test", amount: "10" },
    }),
  },
  {
    call: "POST /api/v2/tremendous/orders",
    allowed: managers,
    request: async (k) => ({
      method: "POST",
      path: `/api/v2/tremendous/orders${keysOf(k)}`,
      body: { eventId: await freshDeliveredGiftEventId() },
    }),
  },
  {
    // Its organiser and staff with edit rights manage it; the contributor who sent it sees it.
    call: "GET /api/v2/media/{id}",
    allowed: ["contributor", "creator", "editor", "admin"],
    request: async () => ({ method: "GET", path: `/api/v2/media/${mediaId}` }),
  },
  { call: "GET /api/v2/notifications", allowed: loggedInKinds, request: async () => ({ method: "GET", path: "/api/v2/notifications" }) },
  {
    call: "POST /api/twilio/lookup-phone-number",
    allowed: loggedInKinds,
    request: async () => ({ method: "POST", path: "/api/twilio/lookup-phone-number", body: { phoneNumber: "+1 415 555 0123" } }),
  },
  {
    call: "POST /api/event",
    allowed: loggedInKinds,
    request: async () => ({
      method: "POST",
      path: "/api/event",
      body: { occasion: "birthday", recipients: [{ firstName: "Ana" }], deadline: new Date(Date.now() + 86_400_000 * 7).toISOString() },
    }),
  },
  // One photo or clip: its organiser, and staff with edit rights, do anything; the contributor who
  // sent it sees it, rewords it and takes it back; anyone else is told it does not exist.
  {
    call: "GET /api/uploads/{mediaUuid}",
    allowed: uploaderAndOrganiser,
    request: async () => ({ method: "GET", path: `/api/uploads/${(await freshMediaId()).mediaUuid}` }),
  },
  {
    call: "PUT /api/v2/media/{id} (caption)",
    allowed: uploaderAndOrganiser,
    request: async () => ({ method: "PUT", path: `/api/v2/media/${mediaId}`, body: { caption: "Matrix" } }),
  },
  {
    call: "PUT /api/v2/media/{id} (hidden)",
    allowed: staffWithEditRights,
    request: async () => ({ method: "PUT", path: `/api/v2/media/${mediaId}`, body: { hidden: false } }),
  },
  {
    call: "DELETE /api/v2/media/{id}",
    allowed: uploaderAndOrganiser,
    request: async () => ({ method: "DELETE", path: `/api/v2/media/${(await freshMediaId()).id}` }),
  },
  {
    call: "PUT /api/v2/media/{id}/restore",
    allowed: staffWithEditRights,
    request: async () => ({ method: "PUT", path: `/api/v2/media/${(await freshMediaId({ archived: true })).id}/restore` }),
    reaches: MEDIA_REFUSAL,
  },
  ...(
    [
      ["POST", "duplicate"],
      ["POST", "pintura-edit"],
      ["POST", "pintura-render"],
      ["PUT", "regenerate-image"],
      ["POST", "revert"],
      ["POST", "upscale"],
      ["POST", "upscale-reviewed"],
    ] as const
  ).map(([method, action]): Case => ({
    call: `${method} /api/v2/media/{id}/${action}`,
    allowed: staffWithEditRights,
    request: async () => ({ method, path: `/api/v2/media/${(await freshMediaId()).id}/${action}`, body: {} }),
    reaches: MEDIA_REFUSAL,
  })),
  {
    call: "POST /api/v2/media (retry)",
    // Processing is tried again by those who manage the Chorus; unlike the item's other actions, not by editors.
    allowed: managers,
    request: async () => ({ method: "POST", path: "/api/v2/media", body: { eventId: mediaEvent.id, mediaId: (await freshMediaId()).id } }),
    reaches: MEDIA_REFUSAL,
  },
  {
    // Whoever is logged in and holds the browser's upload token may claim what that browser sent.
    call: "PUT /api/v2/media/{id}/claim",
    allowed: loggedInKinds,
    request: async () => {
      const uploadToken = crypto.randomBytes(16).toString("hex");
      return { method: "PUT", path: `/api/v2/media/${(await freshMediaId({ uploadToken })).id}/claim`, body: { uploadToken } };
    },
  },
  // Renders and published versions: those who manage the Chorus; the staff's render calls: administrators.
  {
    call: "GET /api/v2/render-jobs/{id}",
    allowed: managers,
    request: async () => ({
      method: "GET",
      path: `/api/v2/render-jobs/${(await insertRenderJob(db(), { eventId: event.id, requestedById: null, publishWhenDone: false, resolution: "720p" })).id}`,
    }),
  },
  {
    call: "POST /api/v2/render-jobs/{id}/publish",
    allowed: managers,
    request: async () => ({ method: "POST", path: `/api/v2/render-jobs/${(await freshWaitingRender()).job.id}/publish` }),
    reaches: /There is no render job with this id/,
  },
  {
    call: "POST /api/publish/media",
    allowed: managers,
    request: async () => {
      const { chorus, job } = await freshWaitingRender();
      return { method: "POST", path: "/api/publish/media", body: { eventId: chorus.id, renderJobId: job.id } };
    },
    reaches: /There is no (Chorus|render job)/,
  },
  {
    call: "PUT /api/v2/published-media/{id}/restore",
    allowed: managers,
    request: async () => ({ method: "PUT", path: `/api/v2/published-media/${publishedVersionId}/restore` }),
  },
  {
    call: "GET /api/admin/renderjobs/{id}",
    allowed: ["admin"],
    request: async () => ({ method: "GET", path: `/api/admin/renderjobs/${(await freshWaitingRender()).job.id}` }),
  },
  {
    call: "DELETE /api/admin/renderjobs/{id}",
    allowed: ["admin"],
    request: async () => ({ method: "DELETE", path: `/api/admin/renderjobs/${(await freshWaitingRender()).job.id}` }),
  },
  {
    call: "POST /api/admin/renderjobs",
    allowed: ["admin"],
    request: async () => ({ method: "POST", path: "/api/admin/renderjobs", body: { eventId: (await freshWaitingRender()).chorus.id } }),
  },
  // Printed things: those who manage the Chorus.
  {
    call: "POST /api/v2/postcards",
    allowed: managers,
    request: async () => ({
      method: "POST",
      path: "/api/v2/postcards",
      body: { eventId: event.id, templateId: "confetti", message: "Hi!" },
    }),
  },
  {
    call: "GET /api/v2/postcards/{id}",
    allowed: managers,
    request: async () => ({ method: "GET", path: `/api/v2/postcards/${await freshPostcardId()}` }),
  },
  {
    call: "PUT /api/v2/postcards/{id}",
    allowed: managers,
    request: async () => ({ method: "PUT", path: `/api/v2/postcards/${await freshPostcardId()}`, body: { message: "Many happy returns" } }),
  },
  {
    call: "POST /api/v2/postcards/{id}/checkout",
    allowed: managers,
    request: async () => ({ method: "POST", path: `/api/v2/postcards/${await freshPostcardId()}/checkout` }),
    reaches: /There is no such postcard/,
  },
  {
    call: "GET /api/v2/postcards/templates/{id}",
    allowed: everyone,
    request: async () => ({ method: "GET", path: "/api/v2/postcards/templates/confetti" }),
  },
  {
    call: "POST /api/v2/acutrack/orders",
    allowed: managers,
    request: async () => ({
      method: "POST",
      path: "/api/v2/acutrack/orders",
      body: { eventId: publishedEvent.id, quantity: 1, ...POSTAL_ADDRESS },
    }),
  },
  {
    call: "POST /api/v2/heirloom",
    allowed: managers,
    request: async () => ({
      method: "POST",
      path: "/api/v2/heirloom",
      body: { eventId: publishedEvent.id, quantity: 1, ...POSTAL_ADDRESS },
    }),
    reaches: /There is no Chorus/,
  },
  {
    // The recipient's own link and view-only links cannot plant.
    call: "POST /api/v2/tree/contributions",
    allowed: ["anonymous", "another user", "contributor", "creator", "editor", "admin"],
    request: async (k) => ({
      method: "POST",
      path: `/api/v2/tree/contributions${keysOf(k)}`,
      body: { eventUuid: event.uuid, name: "Planter", email: uniqueEmail("planter"), quantity: 1 },
    }),
  },
  {
    // A payment's state is told to the browser that opened its page alone.
    call: "GET /api/stripe/retrieve-session",
    allowed: ["creator"],
    request: async () => ({ method: "GET", path: `/api/stripe/retrieve-session?session_id=${await organisersCheckoutSession()}` }),
  },
  // One's own account: its owner, and staff with edit rights who look after accounts; changing a
  // role or a membership, administrators only; e-mail and password, the owner only.
  {
    call: "GET /api/v2/users/{id}",
    allowed: staffWithEditRights,
    request: async () => ({ method: "GET", path: `/api/v2/users/${creatorUser.id}` }),
  },
  {
    call: "PUT /api/v2/users/{id} (nothing)",
    allowed: staffWithEditRights,
    request: async () => ({ method: "PUT", path: `/api/v2/users/${creatorUser.id}`, body: {} }),
  },
  {
    call: "PUT /api/v2/users/{id} (membership)",
    allowed: ["admin"],
    request: async () => ({ method: "PUT", path: `/api/v2/users/${creatorUser.id}`, body: { hasLegacyB2bSubscription: false } }),
  },
  {
    call: "GET /api/v2/user-profiles/{id}",
    allowed: staffWithEditRights,
    request: async () => ({ method: "GET", path: `/api/v2/user-profiles/${(await findProfileOfUser(db(), creatorUser.id))!.id}` }),
  },
  {
    call: "PUT /api/v2/user-profiles/{id}",
    allowed: managers,
    request: async () => ({
      method: "PUT",
      path: `/api/v2/user-profiles/${(await findProfileOfUser(db(), creatorUser.id))!.id}`,
      body: { firstName: "Matrix" },
    }),
  },
  {
    call: "PUT /api/v2/users/{id}/change-email",
    allowed: ["creator"],
    request: async () => ({
      method: "PUT",
      path: `/api/v2/users/${creatorUser.id}/change-email`,
      body: { email: uniqueEmail("moved"), password: PASSWORD },
    }),
  },
  {
    call: "PUT /api/v2/users/{id}/change-password",
    allowed: ["another user"],
    request: async () => ({
      method: "PUT",
      path: `/api/v2/users/${accounts["another user"].id}/change-password`,
      body: { currentPassword: PASSWORD, newPassword: "another long password" },
    }),
  },
  {
    call: "GET /api/v2/auth/impersonate/{id}",
    allowed: ["admin"],
    request: async () => ({ method: "GET", path: `/api/v2/auth/impersonate/${(await createUser()).id}` }),
    // The administrator comes back to themselves for the calls after this one.
    after: (kind) => (kind === "admin" ? clients.admin.get("/api/v2/auth/stop-impersonating").then(() => undefined) : Promise.resolve()),
  },
  {
    call: "POST /api/v2/notifications/{id}/read",
    allowed: ["creator"],
    request: async () => ({ method: "POST", path: `/api/v2/notifications/${await freshNotificationId()}/read` }),
  },
  {
    call: "POST /api/v2/notifications/{id}/seen",
    allowed: ["creator"],
    request: async () => ({ method: "POST", path: `/api/v2/notifications/${await freshNotificationId()}/seen` }),
  },
  { call: "POST /api/v2/mail/verify", allowed: loggedInKinds, request: async () => ({ method: "POST", path: "/api/v2/mail/verify" }) },
  // Themes and music: the built-in ones for everyone, one's own for oneself.
  { call: "GET /api/v2/themes", allowed: everyone, request: async () => ({ method: "GET", path: "/api/v2/themes" }) },
  {
    call: "POST /api/v2/themes",
    allowed: loggedInKinds,
    request: async () => ({ method: "POST", path: "/api/v2/themes", body: { basedOn: baseThemeId } }),
  },
  {
    call: "GET /api/v2/themes/{id}",
    allowed: ["creator"],
    request: async () => ({ method: "GET", path: `/api/v2/themes/${await freshThemeId()}` }),
  },
  {
    call: "PUT /api/v2/themes/{id}",
    allowed: ["creator"],
    request: async () => ({ method: "PUT", path: `/api/v2/themes/${await freshThemeId()}`, body: { name: "Matrix" } }),
  },
  {
    call: "DELETE /api/v2/themes/{id}",
    allowed: ["creator"],
    request: async () => ({ method: "DELETE", path: `/api/v2/themes/${await freshThemeId()}` }),
  },
  {
    call: "POST /api/v2/themes/{id}/restore",
    allowed: ["creator"],
    request: async () => ({ method: "POST", path: `/api/v2/themes/${await freshThemeId(true)}/restore` }),
  },
  { call: "GET /api/v2/tracks", allowed: loggedInKinds, request: async () => ({ method: "GET", path: "/api/v2/tracks" }) },
  {
    // A track is sent as a multipart form: the JSON body here is refused as a bad request, after the log-in check.
    call: "POST /api/v2/tracks",
    allowed: loggedInKinds,
    request: async () => ({ method: "POST", path: "/api/v2/tracks", body: {} }),
    reaches: /./,
  },
  {
    call: "GET /api/v2/tracks/{id}",
    allowed: ["creator"],
    request: async () => ({ method: "GET", path: `/api/v2/tracks/${await freshTrackId()}` }),
  },
  {
    call: "DELETE /api/v2/tracks/{id}",
    allowed: ["creator"],
    request: async () => ({ method: "DELETE", path: `/api/v2/tracks/${await freshTrackId()}` }),
  },
  // Stock photos: anyone logged in.
  {
    call: "POST /api/v2/unsplash-search",
    allowed: loggedInKinds,
    request: async () => ({ method: "POST", path: "/api/v2/unsplash-search", body: { search: "cake" } }),
  },
  {
    call: "POST /api/v2/unsplash-track",
    allowed: loggedInKinds,
    request: async () => ({
      method: "POST",
      path: "/api/v2/unsplash-track",
      body: { downloadLocation: "https://example.test/photos/1/download" },
    }),
    reaches: /./,
  },
  {
    call: "GET /api/v2/announcements/active",
    allowed: everyone,
    request: async () => ({ method: "GET", path: "/api/v2/announcements/active" }),
  },
  { call: "GET /api/v2/auth/who-am-i", allowed: everyone, request: async () => ({ method: "GET", path: "/api/v2/auth/who-am-i" }) },
];

/**
 * API calls with no row above: their answer depends on what is sent (credentials, a token from a
 * mail, an address), not on who sends it, and their own tests cover each.
 */
const ANSWERED_ALIKE: Record<string, string> = {
  "GET /api/*": "an address with no API call: 404 in the API's error shape for everyone (tests/integration/hostile-paths.test.ts)",
  "POST /api/*": "an address with no API call (tests/integration/hostile-paths.test.ts)",
  "PUT /api/*": "an address with no API call (tests/integration/hostile-paths.test.ts)",
  "DELETE /api/*": "an address with no API call (tests/integration/hostile-paths.test.ts)",
  "POST /api/v2/auth/login": "the e-mail and password decide (tests/integration/auth-flows.test.ts)",
  "POST /api/v2/auth/logout": "ends the caller's own session (tests/integration/auth-flows.test.ts)",
  "POST /api/v2/auth/register": "makes a new account from what is sent (tests/integration/auth-flows.test.ts)",
  "POST /api/v2/auth/forgot-password": "sends a link to the address given, to anyone (tests/integration/auth-flows.test.ts)",
  "POST /api/v2/auth/resend-verification": "sends a link to the address given, to anyone (tests/integration/auth-flows.test.ts)",
  "POST /api/v2/auth/check-user": "says whether an address has an account, under a rate limit (tests/integration/auth-flows.test.ts)",
  "POST /api/v2/auth/reset-password/{token}": "the token from the mail decides (tests/integration/auth-flows.test.ts)",
  "GET /api/v2/auth/activate/{token}": "the token from the mail decides (tests/integration/auth-flows.test.ts)",
  "GET /api/v2/auth/stop-impersonating":
    "ends the caller's own impersonation; the impersonation row ends each with it (tests/integration/impersonation.test.ts)",
};

const rows = CASES.flatMap((c) => KINDS.map((kind) => [c.call, kind, c.allowed.includes(kind) ? "allowed" : "refused", c] as const));

/** A row's method and path: `PUT /api/v2/events/{id} (title)` is PUT and api, v2, events, {id}. */
function callParts(call: string) {
  const [method = "", path = ""] = call.split(" ");
  return { method, segments: path.split("?")[0]!.split("/").filter(Boolean) };
}

/** A route's address as the rows write it: parameters in braces, a splat as `*`. */
const pathOf = (route: RouteCall) => `/${route.segments.map((s) => (s.text === "*" ? "*" : s.param ? `{${s.text}}` : s.text)).join("/")}`;

/** Whether the route answers a row's path: its words in place, a parameter where the route has one. */
const answers = (route: RouteCall, segments: string[]) =>
  route.segments.length === segments.length &&
  route.segments.every((s, i) => (s.text === "*" ? segments[i] === "*" : s.param ? segments[i]!.startsWith("{") : s.text === segments[i]));

describe("authorisation matrix: every event route × every kind of viewer", () => {
  test.each(rows)("%s as %s: %s", async (_call, kind, expected, c) => {
    const { method, path, body } = await c.request(kind);
    const reply = await clients[kind].json(method, path, body);
    await c.after?.(kind);
    // Every request is valid (those allowed get a 2xx for the very same one), so only a missing
    // permission can refuse it: a 400 is a validation error and never counts as a refusal.
    if (expected === "allowed" && c.reaches) {
      expect([401, 403], `${reply.status} ${JSON.stringify(reply.body)}`).not.toContain(reply.status);
      if (reply.status === 404) expect(String(reply.body?.error?.message)).not.toMatch(c.reaches);
    } else if (expected === "allowed") expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    else expect([401, 403, 404], `${reply.status} ${JSON.stringify(reply.body)}`).toContain(reply.status);
    const text = JSON.stringify(reply.body);
    // No answer ever carries another event's data.
    for (const secret of [otherEvent.uuid, otherEvent.privateKey, otherEvent.viewKey, otherEvent.eventId])
      expect(text).not.toContain(secret);
    // Only those who manage the event ever see its keys.
    if (!managers.includes(kind)) {
      if (kind !== "recipient") expect(text).not.toContain(event.privateKey);
      expect(text).not.toContain(event.viewKey);
    }
  });

  test("every call has a viewer it allows, whose 2xx shows the request itself is valid", () => {
    for (const c of CASES) expect(c.allowed.length, c.call).toBeGreaterThan(0);
  });

  test("every API route on disk, with each method it answers, has a row or says why it needs none", () => {
    const listed = [...CASES.map((c) => c.call), ...Object.keys(ANSWERED_ALIKE)].map(callParts);
    const missing = apiRoutes().flatMap((route) =>
      route.methods
        .filter((method) => !listed.some((call) => call.method === method && answers(route, call.segments)))
        .map((method) => `${method} ${pathOf(route)} (app/routes/${route.file})`),
    );
    expect(missing).toEqual([]);
  });

  test("every API row names a route that is on disk", () => {
    const routes = apiRoutes();
    const stale = [...CASES.map((c) => c.call), ...Object.keys(ANSWERED_ALIKE)]
      .filter((call) => call.includes(" /api/"))
      .filter((call) => {
        const { method, segments } = callParts(call);
        return !routes.some((route) => route.methods.includes(method as never) && answers(route, segments));
      });
    expect(stale).toEqual([]);
  });

  test("the role each viewer gets on the event", async () => {
    const roles: Record<string, string> = {};
    for (const kind of KINDS) roles[kind] = (await clients[kind].get(`/api/event/${event.id}${keysOf(kind)}`)).body.data.role;
    expect(roles).toEqual({
      anonymous: "public",
      "another user": "public",
      contributor: "public",
      recipient: "recipient",
      "view-only": "view-only",
      creator: "creator",
      editor: "public",
      admin: "creator",
    });
  });
});

// Staff pages about money (/admin/payments, /admin/promo-codes): administrators only. Pages answer
// someone logged out with the log-in page, anyone else with 403 (an editor) or 404.
describe("authorisation matrix: staff pages about money × every kind of viewer", () => {
  let paymentId: string;
  let paymentIntentId: string;
  let staffCodeId: string;

  /** A paid Chorus of its own, so the one refund that goes through takes nothing from the others. */
  async function freshPayment() {
    const organiser = await loggedIn();
    return payThroughLocalService(organiser.client, await createTestEvent(organiser.user));
  }

  beforeAll(async () => {
    ({ id: paymentId, providerPaymentId: paymentIntentId } = await freshPayment());
    staffCodeId = (await insertPromoCode(db(), { code: `STAFF-${event.eventId}`, kind: "amount", value: 100, currency: "usd" })).id;
  });

  interface PageCase {
    call: string;
    request: (kind: Kind) => Promise<{ method: "GET" | "POST"; path: string; form?: Record<string, string> }>;
  }

  const PAGE_CASES: PageCase[] = [
    { call: "GET /admin/payments", request: async () => ({ method: "GET", path: "/admin/payments?q=example" }) },
    { call: "GET /admin/payments/{id}", request: async () => ({ method: "GET", path: `/admin/payments/${paymentId}` }) },
    {
      call: "POST /admin/payments/{id} (refund)",
      // Only the administrator's refund goes through: it gets a payment of its own to refund.
      request: async (k) => ({
        method: "POST",
        path: `/admin/payments/${k === "admin" ? (await freshPayment()).id : paymentId}`,
        form: { scope: "part", amount: "1.00", reason: "Matrix" },
      }),
    },
    { call: "GET /admin/promo-codes", request: async () => ({ method: "GET", path: "/admin/promo-codes" }) },
    {
      call: "POST /admin/promo-codes (create)",
      request: async () => ({ method: "POST", path: "/admin/promo-codes", form: { code: "", kind: "percent", value: "5" } }),
    },
    { call: "GET /admin/promo-codes/{id}", request: async () => ({ method: "GET", path: `/admin/promo-codes/${staffCodeId}` }) },
    {
      call: "POST /admin/promo-codes/{id} (pause)",
      request: async (k) => ({
        method: "POST",
        path: `/admin/promo-codes/${staffCodeId}`,
        form: { intent: k === "admin" ? "pause" : "resume" },
      }),
    },
  ];

  const pageRows = PAGE_CASES.flatMap((c) => KINDS.map((kind) => [c.call, kind, kind === "admin" ? "allowed" : "refused", c] as const));

  test.each(pageRows)("%s as %s: %s", async (_call, kind, expected, c) => {
    const { method, path, form } = await c.request(kind);
    const reply = form ? await clients[kind].form(path, form) : await clients[kind].raw(method, path);
    const location = reply.headers.get("location") ?? "";
    const text = await reply.text();
    if (expected === "allowed") {
      expect(reply.status, text.slice(0, 300)).toBeLessThan(400);
      expect(location).not.toMatch(/^\/auth\/login/);
    } else if (kind === "anonymous" || kind === "recipient" || kind === "view-only") {
      // Logged out: the log-in page, which comes back here afterwards.
      expect(reply.status).toBe(302);
      expect(location).toMatch(/^\/auth\/login\?redirectTo=/);
    } else {
      expect(reply.status).toBe(kind === "editor" ? 403 : 404);
    }
    // No refused answer shows a payment or a code (the address asked for may be in the page's links).
    if (expected === "refused") {
      expect(text).not.toContain(paymentIntentId);
      expect(text).not.toContain(`STAFF-${event.eventId}`);
    }
  });
});

// The staff console: the reports queue is for staff (administrators and editors); announcements and
// the audit log are for administrators only. Refused as the money pages are: someone logged out
// gets the log-in page, an editor a 403 where only administrators may go, anyone else a 404.
describe("authorisation matrix: staff console pages × every kind of viewer", () => {
  const staff: Kind[] = ["editor", "admin"];
  const admins: Kind[] = ["admin"];

  /** A Chorus of its own with one open report: something to dismiss or take down. */
  async function freshReportedEventId() {
    const reported = await createTestEvent(await createUser());
    await insertEventReport(db(), { eventId: reported.id, reporterId: null, reporterIp: "10.0.0.1", reason: "Matrix" });
    return reported.id;
  }
  async function freshTakenDownEventId() {
    const id = await freshReportedEventId();
    await setEventTakenDown(db(), id, "Matrix");
    return id;
  }
  const freshAnnouncementId = async () =>
    (await insertAnnouncement(db(), { type: "notice", message: "Matrix", link: null, startsAt: null, endsAt: null })).id;

  interface ConsoleCase {
    call: string;
    allowed: Kind[];
    request: () => Promise<{ method: "GET" | "POST"; path: string; form?: Record<string, string> }>;
    /** Puts the viewer back as they were, after a call that changes who they are. */
    after?: (kind: Kind) => Promise<void>;
  }

  const CONSOLE_CASES: ConsoleCase[] = [
    { call: "GET /admin/reports", allowed: staff, request: async () => ({ method: "GET", path: "/admin/reports" }) },
    {
      call: "POST /admin/reports (dismiss)",
      allowed: staff,
      request: async () => ({ method: "POST", path: "/admin/reports", form: { intent: "dismiss", eventId: await freshReportedEventId() } }),
    },
    {
      call: "POST /admin/reports (take down)",
      allowed: staff,
      request: async () => ({
        method: "POST",
        path: "/admin/reports",
        form: { intent: "take-down", eventId: await freshReportedEventId(), reason: "Matrix take-down" },
      }),
    },
    {
      call: "POST /admin/reports (restore)",
      allowed: staff,
      request: async () => ({
        method: "POST",
        path: "/admin/reports",
        form: { intent: "restore", eventId: await freshTakenDownEventId() },
      }),
    },
    { call: "GET /admin/announcements", allowed: admins, request: async () => ({ method: "GET", path: "/admin/announcements" }) },
    {
      call: "POST /admin/announcements (create)",
      allowed: admins,
      request: async () => ({
        method: "POST",
        path: "/admin/announcements",
        form: { intent: "create", message: "Matrix", kind: "notice" },
      }),
    },
    {
      call: "POST /admin/announcements (preview)",
      allowed: admins,
      request: async () => ({
        method: "POST",
        path: "/admin/announcements",
        form: { intent: "preview", message: "Matrix", kind: "notice" },
      }),
    },
    {
      call: "POST /admin/announcements (end now)",
      allowed: admins,
      request: async () => ({ method: "POST", path: "/admin/announcements", form: { intent: "end", id: await freshAnnouncementId() } }),
    },
    { call: "GET /admin/audit", allowed: admins, request: async () => ({ method: "GET", path: "/admin/audit?kind=event_taken_down" }) },
    { call: "GET /admin/choruses", allowed: staff, request: async () => ({ method: "GET", path: `/admin/choruses?q=${event.eventId}` }) },
    { call: "GET /admin/people", allowed: admins, request: async () => ({ method: "GET", path: "/admin/people?q=example" }) },
    { call: "GET /admin/people/{id}", allowed: admins, request: async () => ({ method: "GET", path: `/admin/people/${creatorUser.id}` }) },
    {
      call: "POST /admin/people/{id} (role)",
      allowed: admins,
      request: async () => ({ method: "POST", path: `/admin/people/${(await createUser()).id}`, form: { intent: "role", role: "editor" } }),
    },
    {
      call: "POST /admin/people/{id} (resend verification)",
      allowed: admins,
      request: async () => ({
        method: "POST",
        path: `/admin/people/${(await createUser({ verified: false })).id}`,
        form: { intent: "resend-verification" },
      }),
    },
    {
      call: "POST /admin/people/{id} (disable)",
      allowed: admins,
      request: async () => ({ method: "POST", path: `/admin/people/${(await createUser()).id}`, form: { intent: "disable" } }),
    },
    {
      call: "POST /admin/people/{id} (enable)",
      allowed: admins,
      request: async () => {
        const person = await createUser();
        await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, person.id));
        return { method: "POST", path: `/admin/people/${person.id}`, form: { intent: "enable" } };
      },
    },
    {
      call: "POST /admin/people/{id} (impersonate)",
      allowed: admins,
      request: async () => ({ method: "POST", path: `/admin/people/${(await createUser()).id}`, form: { intent: "impersonate" } }),
      // The administrator comes back to themselves for the calls after this one.
      after: (kind) => (kind === "admin" ? clients.admin.form("/admin/stop-impersonating", {}).then(() => undefined) : Promise.resolve()),
    },
    {
      call: "POST /admin (retry a render)",
      allowed: admins,
      request: async () => ({ method: "POST", path: "/admin", form: { intent: "retry-render", jobId: await freshFailedRenderId() } }),
    },
    { call: "GET /admin/queues", allowed: admins, request: async () => ({ method: "GET", path: "/admin/queues" }) },
  ];

  const consoleRows = CONSOLE_CASES.flatMap((c) =>
    KINDS.map((kind) => [c.call, kind, c.allowed.includes(kind) ? "allowed" : "refused", c] as const),
  );

  test.each(consoleRows)("%s as %s: %s", async (_call, kind, expected, c) => {
    const { method, path, form } = await c.request();
    const reply = form ? await clients[kind].form(path, form) : await clients[kind].raw(method, path);
    await c.after?.(kind);
    const location = reply.headers.get("location") ?? "";
    const text = await reply.text();
    if (expected === "allowed") {
      expect(reply.status, text.slice(0, 300)).toBeLessThan(400);
      expect(location).not.toMatch(/^\/auth\/login/);
    } else if (kind === "anonymous" || kind === "recipient" || kind === "view-only") {
      expect(reply.status).toBe(302);
      expect(location).toMatch(/^\/auth\/login\?redirectTo=/);
    } else {
      expect(reply.status).toBe(kind === "editor" ? 403 : 404);
    }
    // A refused post to a person's page changed nothing of them.
    if (expected === "refused" && path.startsWith("/admin/people/") && form) {
      const [person] = await db()
        .select()
        .from(users)
        .where(eq(users.id, path.split("/")[3]!));
      expect(person!.role).toBe("user");
      expect(!!person!.disabledAt).toBe(form.intent === "enable");
    }
    // A refused post changed nothing: its Chorus is as it was, its announcement still live.
    if (expected === "refused" && form?.eventId) {
      const [moderated] = await db().select().from(events).where(eq(events.id, form.eventId));
      expect(!!moderated!.takenDownAt).toBe(form.intent === "restore");
    }
    if (expected === "refused" && form?.id) {
      const [announcement] = await db().select().from(announcements).where(eq(announcements.id, form.id));
      expect(announcement!.endsAt).toBeNull();
    }
  });

  test("a Chorus taken down: its page opens for staff only, and says it is unavailable to everyone else", async () => {
    const takenDown = (await findEventById(db(), await freshTakenDownEventId()))!;
    for (const kind of KINDS) {
      const keys =
        kind === "recipient" ? `?privateKey=${takenDown.privateKey}` : kind === "view-only" ? `?viewKey=${takenDown.viewKey}` : "";
      const reply = await clients[kind].raw("GET", `/e/${takenDown.uuid}${keys}`);
      const text = await reply.text();
      expect(reply.status, kind).toBe(staff.includes(kind) ? 200 : 410);
      if (!staff.includes(kind)) expect(text).not.toContain(takenDown.eventId);
    }
  });
});
