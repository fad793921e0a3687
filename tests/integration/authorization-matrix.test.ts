import type { Event, User } from "drizzle/schema";
import { announcements, events, users } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertAnnouncement } from "~/models/announcement.server";
import { insertEventReport, setEventTakenDown } from "~/models/event-report.server";
import { findEventById, insertRecipient, updateEvent } from "~/models/event.server";
import { upsertGift } from "~/models/gift.server";
import { insertMedia } from "~/models/media.server";
import { insertPromoCode } from "~/models/promo-code.server";
import { insertRenderJob, updateRenderJob } from "~/models/render-job.server";
import { insertRsvp } from "~/models/rsvp.server";
import { openCartOf } from "~/services/commerce/carts.server";
import type { RunningServer } from "../../server";
import { createUser, loggedInUser, uniqueEmail } from "../support/accounts";
import { createPaidTestEvent, createTestEvent } from "../support/events";
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
const clients = {} as Record<Kind, TestClient>;

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
  const mediaEvent = await createTestEvent(creator.user);
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
  clients.creator = creator.client;
  clients.contributor = contributor.client;
  clients["another user"] = (await loggedIn()).client;
  clients.editor = (await loggedIn("editor")).client;
  clients.admin = (await loggedIn("admin")).client;
  clients.anonymous = new TestClient(server.url);
  clients.recipient = new TestClient(server.url);
  clients["view-only"] = new TestClient(server.url);
});
afterAll(() => server.close());

interface Case {
  call: string;
  allowed: Kind[];
  request: (kind: Kind) => Promise<{ method: string; path: string; body?: unknown }>;
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
];

const rows = CASES.flatMap((c) => KINDS.map((kind) => [c.call, kind, c.allowed.includes(kind) ? "allowed" : "refused", c] as const));

describe("authorisation matrix: every event route × every kind of viewer", () => {
  test.each(rows)("%s as %s: %s", async (_call, kind, expected, c) => {
    const { method, path, body } = await c.request(kind);
    const reply = await clients[kind].json(method, path, body);
    // Every request is valid (those allowed get a 2xx for the very same one), so only a missing
    // permission can refuse it: a 400 is a validation error and never counts as a refusal.
    if (expected === "allowed") expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
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
