import crypto from "node:crypto";
import { Readable } from "node:stream";
import { announcements, eventReports, events, staffActions } from "drizzle/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { signedMediaUrl } from "~/lib/media-url.server";
import { insertAnnouncement } from "~/models/announcement.server";
import { findMediaById, insertMedia } from "~/models/media.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startSmtpSink, unfold } from "../support/smtp-sink";
import { startTestServer } from "../support/test-server";
import { create, TusRequestError } from "../support/tus-client";

// The staff console through the real server, PostgreSQL and SMTP, with plain form posts as a
// browser without JavaScript sends them: the reports queue, announcements and the audit log.

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: RunningServer;
let admin: Awaited<ReturnType<typeof loggedInUser>>;
let editor: Awaited<ReturnType<typeof loggedInUser>>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: "Chorus <hello@chorus.test>", JOB_POLL_SECONDS: "0.5" });
  admin = await loggedInUser(server.url, "admin");
  editor = await loggedInUser(server.url, "editor");
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const page = async (client: TestClient, path: string) => {
  const response = await client.raw("GET", path);
  const html = (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
  return { status: response.status, html };
};

/** The rows of a page's table only: its filters and its data for the browser name more. */
const tableOf = (html: string) => html.slice(html.indexOf("<tbody"), html.indexOf("</tbody>"));

const actionsOn = (subjectId: string) => db().select().from(staffActions).where(eq(staffActions.subjectId, subjectId));
const reportsOf = (eventId: string) => db().select().from(eventReports).where(eq(eventReports.eventId, eventId));

/** A Chorus of its own organiser, reported `reasons.length` times by someone logged in. */
async function reportedChorus(...reasons: string[]) {
  const organiser = await loggedInUser(server.url);
  const event = await createTestEvent(organiser.user, { title: `Party ${crypto.randomBytes(3).toString("hex")}` });
  const reporter = await loggedInUser(server.url);
  for (const reason of reasons) expect((await reporter.client.post(`/api/v2/events/${event.id}/report`, { reason })).status).toBe(200);
  return { organiser, event, reporter };
}

/** A photo of the Chorus with its original in storage. */
async function storedPhotoOf(eventId: string) {
  const originalKey = `events/${eventId}/uploads/${crypto.randomUUID()}`;
  await storage().putStream(originalKey, Readable.from([Buffer.from("a picture's bytes")]), "image/jpeg");
  return insertMedia(db(), {
    eventId,
    purpose: "contribution",
    originalKey,
    originalName: "photo.jpg",
    mimeType: "image/jpeg",
    sizeBytes: 17,
    contributorName: "Sam",
    uploadTokenHash: null,
    uploaderId: null,
    uploadId: `test-${crypto.randomUUID()}`,
  });
}

const tusMetadata = (eventUuid: string) => ({
  eventUuid,
  filename: "clip.mp4",
  filetype: "video/mp4",
  contributorName: "Cyrus",
  purpose: "contribution",
  uploadToken: crypto.randomBytes(24).toString("base64url"),
});

async function uploadRefusal(eventUuid: string) {
  const error = await create(server.url, 1000, tusMetadata(eventUuid)).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof TusRequestError)) throw new Error(`expected a refused upload, got ${String(error)}`);
  return { status: error.status, message: error.userMessage };
}

describe("reports queue", () => {
  test("a reported Chorus is listed once with each reason, its reporter, when, how many reports and a link to its page", async () => {
    const { event, reporter } = await reportedChorus("Offensive picture", "Spam");
    const queue = await page(editor.client, "/admin/reports");
    expect(queue.status).toBe(200);
    expect(queue.html).toContain(event.title);
    expect(queue.html).toContain("Offensive picture");
    expect(queue.html).toContain("Spam");
    expect(queue.html).toContain(reporter.user.email);
    expect(queue.html).toContain("2 reports");
    expect(queue.html).toContain(`href="/e/${event.uuid}"`);
    expect(queue.html).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  });

  test("dismiss: the reports leave the open queue, the Chorus stays open, and the dismissal is recorded", async () => {
    const { event } = await reportedChorus("Not sure about this");
    const reply = await editor.client.form("/admin/reports", { intent: "dismiss", eventId: event.id });
    expect(reply.status).toBe(302);
    expect(reply.headers.get("location")).toBe("/admin/reports");

    expect((await reportsOf(event.id)).map((r) => [r.resolution, r.resolvedById])).toEqual([["dismissed", editor.user.id]]);
    expect((await page(editor.client, "/admin/reports")).html).not.toContain(event.title);
    expect((await page(new TestClient(server.url), `/e/${event.uuid}`)).status).toBe(200);
    const [action] = await actionsOn(event.id);
    expect(action).toMatchObject({ action: "reports_dismissed", actorEmail: editor.user.email, subjectType: "event" });
    expect(action!.details).toMatchObject({ reports: 1 });

    // Nothing left to dismiss: said so, and nothing more is recorded.
    const again = await editor.client.form("/admin/reports", { intent: "dismiss", eventId: event.id });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("no open reports");
    expect(await actionsOn(event.id)).toHaveLength(1);
  });

  test("take down: every page but staff's says unavailable, uploads are refused, the organiser is e-mailed why; restore undoes it", async () => {
    const { event, organiser } = await reportedChorus("Hateful message");
    // A link to one of its files handed out before the take-down, as the recipient's page would.
    const item = await storedPhotoOf(event.id);
    const fileLink = signedMediaUrl(item.mediaUuid, "original");
    expect((await new TestClient(server.url).raw("GET", fileLink)).status).toBe(200);
    const reason = "The message insults the recipient, which our terms do not allow.";
    const reply = await editor.client.form("/admin/reports", { intent: "take-down", eventId: event.id, reason });
    expect(reply.status).toBe(302);

    const [row] = await db().select().from(events).where(eq(events.id, event.id));
    expect(row!.takenDownAt).not.toBeNull();
    expect(row!.takenDownReason).toBe(reason);
    expect((await reportsOf(event.id)).map((r) => r.resolution)).toEqual(["taken_down"]);

    // The public (here also the contributor's page, the Chorus still collecting), the recipient, the view-only link.
    for (const keys of ["", `?privateKey=${event.privateKey}`, `?viewKey=${event.viewKey}`]) {
      const seen = await page(new TestClient(server.url), `/e/${event.uuid}${keys}`);
      expect(seen.status, keys).toBe(410);
      expect(seen.html).toContain("is unavailable");
      expect(seen.html).not.toContain(event.title);
    }
    // An invitee logged in, and the organiser too, find it unavailable.
    expect((await page(organiser.client, `/e/${event.uuid}`)).status).toBe(410);
    expect((await new TestClient(server.url).get(`/api/event/${event.id}`)).body).toMatchObject({
      success: false,
      error: { code: "CHORUS_UNAVAILABLE" },
    });
    // Staff still see it, to judge it.
    const judged = await page(editor.client, `/e/${event.uuid}`);
    expect(judged.status).toBe(200);
    expect(judged.html).toContain("Taken down: everyone but staff finds this Chorus unavailable.");
    expect(judged.html).toContain(reason);
    expect((await page(admin.client, `/e/${event.uuid}`)).status).toBe(200);
    // Its files too, through the links handed out before; staff still see them.
    const late = await new TestClient(server.url).raw("GET", fileLink);
    expect([late.status, await late.text()]).toEqual([410, "This Chorus is unavailable.\n"]);
    expect((await organiser.client.raw("GET", fileLink)).status).toBe(410);
    expect((await editor.client.raw("GET", fileLink)).status).toBe(200);
    // No more uploads.
    expect(await uploadRefusal(event.uuid)).toEqual({ status: 410, message: "This Chorus is unavailable." });

    // The organiser's e-mail, through the mail job and real SMTP.
    await expect.poll(() => smtp.to(organiser.user.email).length, { timeout: 15_000 }).toBe(1);
    const mail = unfold(smtp.to(organiser.user.email)[0]!.raw);
    expect(mail).toContain(`Subject: Your Chorus ${event.eventId} was taken down`);
    expect(mail).toContain(reason);
    expect(mail).toContain(event.eventId);

    const [takenDown] = await actionsOn(event.id);
    expect(takenDown).toMatchObject({ action: "event_taken_down", actorEmail: editor.user.email });
    expect(takenDown!.details).toMatchObject({ reason, reports: 1 });

    // Listed as taken down, with Restore.
    const queue = await page(editor.client, "/admin/reports");
    expect(queue.html).toContain(reason);
    const restored = await editor.client.form("/admin/reports", { intent: "restore", eventId: event.id });
    expect(restored.status).toBe(302);
    expect((await page(new TestClient(server.url), `/e/${event.uuid}`)).status).toBe(200);
    expect((await page(editor.client, `/e/${event.uuid}`)).html).not.toContain("Taken down:");
    expect((await page(new TestClient(server.url), `/e/${event.uuid}?privateKey=${event.privateKey}`)).status).toBe(200);
    expect((await new TestClient(server.url).raw("GET", fileLink)).status).toBe(200);
    await expect(create(server.url, 1000, tusMetadata(event.uuid))).resolves.toMatch(/^\/uploads\/tus\//);
    expect((await actionsOn(event.id)).map((a) => a.action).sort()).toEqual(["event_restored", "event_taken_down"]);
    // One e-mail only: restoring sends none, and the job did not send twice.
    expect(smtp.to(organiser.user.email)).toHaveLength(1);
  });

  test("Take down pressed twice at once: taken down once, recorded once, one e-mail", async () => {
    const { event, organiser } = await reportedChorus("Twice");
    const press = () => admin.client.form("/admin/reports", { intent: "take-down", eventId: event.id, reason: "Pressed twice" });
    const statuses = (await Promise.all([press(), press()])).map((r) => r.status).sort();
    expect(statuses).toEqual([302, 400]);
    expect((await actionsOn(event.id)).map((a) => a.action)).toEqual(["event_taken_down"]);
    await expect.poll(() => smtp.to(organiser.user.email).length, { timeout: 15_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.to(organiser.user.email)).toHaveLength(1);
  });

  test("a take-down without a reason is refused with the field's error and changes nothing", async () => {
    const { event } = await reportedChorus("Weird");
    const reply = await admin.client.form("/admin/reports", { intent: "take-down", eventId: event.id, reason: " " });
    expect(reply.status).toBe(400);
    expect(await reply.text()).toContain("Say why, for its organiser.");
    const [row] = await db().select().from(events).where(eq(events.id, event.id));
    expect(row!.takenDownAt).toBeNull();
    expect(await actionsOn(event.id)).toHaveLength(0);
    expect((await reportsOf(event.id))[0]!.resolvedAt).toBeNull();
  });
});

describe("announcements", () => {
  const unique = (label: string) => `${label} ${crypto.randomBytes(4).toString("hex")}`;
  const active = async () =>
    (await new TestClient(server.url).get("/api/v2/announcements/active")).body.data as {
      type: string;
      message: string;
      link: string | null;
    }[];
  /** A datetime-local value, UTC, `minutes` from now. */
  const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 16);

  test("live only between its start and end: one live now, one to come, one over; End now takes it off", async () => {
    const live = unique("Half price this week");
    const later = unique("Maintenance on Sunday");
    const reply = await admin.client.form("/admin/announcements", {
      intent: "create",
      message: live,
      kind: "promotion",
      link: "/pricing",
      endsAt: inMinutes(60),
    });
    expect(reply.status).toBe(302);
    expect(
      (await admin.client.form("/admin/announcements", { intent: "create", message: later, kind: "notice", startsAt: inMinutes(60) }))
        .status,
    ).toBe(302);
    const over = unique("Yesterday's news");
    await insertAnnouncement(db(), {
      type: "notice",
      message: over,
      link: null,
      startsAt: new Date(Date.now() - 7_200_000),
      endsAt: new Date(Date.now() - 3_600_000),
    });

    const now = await active();
    expect(now).toContainEqual({ type: "promotion", message: live, link: "/pricing" });
    expect(now.map((a) => a.message)).not.toContain(later);
    expect(now.map((a) => a.message)).not.toContain(over);

    const list = await page(admin.client, "/admin/announcements");
    expect(list.html).toContain(live);
    expect(list.html).toContain("announcement--promotion");
    expect(list.html).toContain("scheduled");

    const [row] = await db().select().from(announcements).where(eq(announcements.message, live));
    expect((await admin.client.form("/admin/announcements", { intent: "end", id: row!.id })).status).toBe(302);
    expect((await active()).map((a) => a.message)).not.toContain(live);
    expect((await actionsOn(row!.id)).map((a) => a.action).sort()).toEqual(["announcement_created", "announcement_ended"]);
    // Ending it twice is refused and recorded once.
    expect((await admin.client.form("/admin/announcements", { intent: "end", id: row!.id })).status).toBe(400);
    expect(await actionsOn(row!.id)).toHaveLength(2);
  });

  test("Preview shows the banner as it will look (any kind but promotion in yellow) and saves nothing", async () => {
    const message = unique("Heads up");
    const reply = await admin.client.form("/admin/announcements", { intent: "preview", message, kind: "maintenance" });
    expect(reply.status).toBe(200);
    const html = await reply.text();
    expect(html).toContain("As it will look");
    expect(html).toMatch(/announcement announcement--notice[^>]*>[^<]*<span>Heads up/);
    expect(await db().select().from(announcements).where(eq(announcements.message, message))).toHaveLength(0);
  });

  test("a link that is neither a page of the site nor https, and an end before the start, are refused", async () => {
    const reply = await admin.client.form("/admin/announcements", {
      intent: "create",
      message: unique("Bad"),
      kind: "notice",
      link: "javascript:alert(1)",
      startsAt: inMinutes(120),
      endsAt: inMinutes(60),
    });
    expect(reply.status).toBe(400);
    const html = (await reply.text()).replaceAll("&#x27;", "'");
    expect(html).toContain("Use a page of this site (/pricing) or an https:// address.");
    expect(html).toContain("Choose an end after the start.");
  });

  test("editors are refused announcements; they may only moderate", async () => {
    expect((await editor.client.raw("GET", "/admin/announcements")).status).toBe(403);
    const reply = await editor.client.form("/admin/announcements", { intent: "create", message: unique("Editor"), kind: "notice" });
    expect(reply.status).toBe(403);
  });
});

describe("audit log", () => {
  test("every staff action, newest first, with who, what, on what and when; filtered by staff member and by kind", async () => {
    const { event } = await reportedChorus("Audit me");
    expect((await editor.client.form("/admin/reports", { intent: "dismiss", eventId: event.id })).status).toBe(302);
    const message = `Audit banner ${crypto.randomBytes(4).toString("hex")}`;
    expect((await admin.client.form("/admin/announcements", { intent: "create", message, kind: "notice" })).status).toBe(302);
    // Impersonation is recorded too (by an administrator of its own, whose session it replaces).
    const impersonator = await loggedInUser(server.url, "admin");
    const target = await loggedInUser(server.url);
    expect((await impersonator.client.form("/admin", { email: target.user.email })).status).toBe(302);

    const log = await page(admin.client, "/admin/audit");
    expect(log.status).toBe(200);
    // Newest first (in the table: the kind filter names every kind above it).
    const table = tableOf(log.html);
    const [impersonated, created, dismissed] = ["Impersonation started", "Announcement created", "Reports dismissed"].map((w) =>
      table.indexOf(w),
    );
    expect(impersonated).toBeGreaterThan(-1);
    expect(impersonated).toBeLessThan(created!);
    expect(created).toBeLessThan(dismissed!);
    expect(log.html).toContain(target.user.email);
    expect(log.html).toContain(`href="/e/${event.uuid}"`);

    const rowsOf = async (path: string) => {
      return tableOf((await page(admin.client, path)).html);
    };
    const byEditor = await rowsOf(`/admin/audit?by=${encodeURIComponent(editor.user.email)}`);
    expect(byEditor).toContain("Reports dismissed");
    expect(byEditor).not.toContain("Announcement created");
    const byKind = await rowsOf("/admin/audit?kind=announcement_created");
    expect(byKind).toContain(message);
    expect(byKind).not.toContain("Reports dismissed");
    // An unknown kind is no filter, not an error; a page past the end is empty.
    expect((await page(admin.client, "/admin/audit?kind=nonsense")).status).toBe(200);
    expect((await page(admin.client, "/admin/audit?page=9999")).html).toContain("No staff actions yet.");

    const recorded = await db()
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.action, "impersonation_started"), eq(staffActions.subjectId, target.user.id)));
    expect(recorded).toMatchObject([{ actorEmail: impersonator.user.email, subjectType: "user" }]);
  });

  test("editors are refused the audit log", async () => {
    expect((await editor.client.raw("GET", "/admin/audit")).status).toBe(403);
  });
});

describe("edit rights over any Chorus's contributions (spec §6)", () => {
  test("an editor hides, archives and restores an item of someone else's Chorus; another user learns nothing of it", async () => {
    const organiser = await loggedInUser(server.url);
    const chorus = await createTestEvent(organiser.user);
    const item = await insertMedia(db(), {
      eventId: chorus.id,
      purpose: "contribution",
      originalKey: `events/${chorus.id}/uploads/${crypto.randomUUID()}`,
      originalName: "photo.jpg",
      mimeType: "image/jpeg",
      sizeBytes: 1000,
      contributorName: "Sam",
      caption: "Something that should not be here",
      uploadTokenHash: null,
      uploaderId: null,
      uploadId: `test-${crypto.randomUUID()}`,
    });
    const editor = await loggedInUser(server.url, "editor");
    const hidden = await editor.client.put(`/api/v2/media/${item.id}`, { hidden: true });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    expect((await findMediaById(db(), item.id))!.hidden).toBe(true);
    expect((await editor.client.delete(`/api/v2/media/${item.id}`)).status).toBe(200);
    expect((await findMediaById(db(), item.id))!.archivedAt).not.toBeNull();
    expect((await editor.client.put(`/api/v2/media/${item.id}/restore`)).status).toBe(200);
    expect((await findMediaById(db(), item.id))!.archivedAt).toBeNull();

    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.put(`/api/v2/media/${item.id}`, { hidden: false })).status).toBe(404);
    expect((await findMediaById(db(), item.id))!.hidden).toBe(true);
  });
});
