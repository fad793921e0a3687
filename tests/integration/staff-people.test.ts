import crypto from "node:crypto";
import { renderJobs, sessions, staffActions, users } from "drizzle/schema";
import { and, desc, eq } from "drizzle-orm";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { insertRenderJob, updateRenderJob } from "~/models/render-job.server";
import { findProfileOfUser, updateProfile } from "~/models/user-profile.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../media/support/media-fixtures";
import { createUser, logIn, loggedInUser, PASSWORD, uniqueEmail } from "../support/accounts";
import { createPaidTestEvent, createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { jobsOf } from "../support/jobs";
import { addReadyMedia } from "../support/ready-media";
import { startSmtpSink, unfold } from "../support/smtp-sink";
import { startTestServer } from "../support/test-server";

// People, Choruses, render retries and queue health on the staff console, through the real server,
// PostgreSQL and SMTP, with plain form posts as a browser without JavaScript sends them. No process
// works jobs here: what is queued stays queued, for the queue page to count.

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let admin: Awaited<ReturnType<typeof loggedInUser>>;
let editor: Awaited<ReturnType<typeof loggedInUser>>;
const sockets: Socket[] = [];

/**
 * A page's live connection to a namespace with a client's cookie, once the server has greeted it;
 * `closedByServer` resolves if the server ends it.
 */
async function liveConnection(namespace: string, client: TestClient) {
  const socket = connect(`${server.url}${namespace}`, {
    transports: ["websocket"],
    extraHeaders: { cookie: client.cookieHeader() },
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("session:ready", () => resolve());
    socket.once("connect_error", reject);
  });
  const closedByServer = new Promise<string>((resolve) => socket.on("disconnect", (reason) => resolve(reason)));
  return { socket, closedByServer };
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  files = await makeTempDir("staff-people");
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: "Chorus <hello@chorus.test>", RUN_WORKER: "false" });
  admin = await loggedInUser(server.url, "admin");
  editor = await loggedInUser(server.url, "editor");
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
  await smtp?.close();
  await files?.remove();
});

const page = async (client: TestClient, path: string) => {
  const response = await client.raw("GET", path);
  const html = (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
  return { status: response.status, html };
};
const tableOf = (html: string) => html.slice(html.indexOf("<tbody"), html.indexOf("</tbody>"));
const actionsOn = (subjectId: string) =>
  db().select().from(staffActions).where(eq(staffActions.subjectId, subjectId)).orderBy(desc(staffActions.createdAt));
const sessionsOf = (userId: string) => db().select().from(sessions).where(eq(sessions.userId, userId));
const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;

async function named(firstName: string, lastName: string) {
  const user = await createUser({ email: uniqueEmail(firstName.toLowerCase()) });
  await updateProfile(db(), (await findProfileOfUser(db(), user.id))!.id, { firstName, lastName });
  return user;
}

describe("people", () => {
  test("search finds people by part of their e-mail or their name, newest first, and opens a person's page", async () => {
    const tag = crypto.randomBytes(3).toString("hex");
    const older = await named(`Ada${tag}`, "Lovelace");
    const newer = await named(`Grace${tag}`, "Hopper");
    await db()
      .update(users)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(users.id, older.id));

    const byName = await page(admin.client, `/admin/people?q=${tag}`);
    expect(byName.status).toBe(200);
    const rows = tableOf(byName.html);
    expect(rows).toContain(newer.email);
    expect(rows).toContain(older.email);
    expect(rows.indexOf(newer.email)).toBeLessThan(rows.indexOf(older.email));
    expect(rows).not.toContain(admin.user.email);

    const byFullName = tableOf((await page(admin.client, `/admin/people?q=${encodeURIComponent(`grace${tag} hopper`)}`)).html);
    expect(byFullName).toContain(newer.email);
    expect(byFullName).not.toContain(older.email);

    const byEmail = tableOf((await page(admin.client, `/admin/people?q=${older.email.slice(0, 12).toUpperCase()}`)).html);
    expect(byEmail).toContain(older.email);

    const event = await createTestEvent(newer, { title: `Party ${tag}` });
    const person = await page(admin.client, `/admin/people/${newer.id}`);
    expect(person.status).toBe(200);
    expect(person.html).toContain(`Party ${tag}`);
    expect(person.html).toContain(`/e/${event.uuid}`);
    expect(person.html).toContain("Not a member");
  });

  test("an administrator changes someone else's role, recorded; never their own", async () => {
    const person = await createUser();
    const reply = await admin.client.form(`/admin/people/${person.id}`, { intent: "role", role: "editor" });
    expect(reply.status).toBe(302);
    expect(reply.headers.get("location")).toBe(`/admin/people/${person.id}`);
    expect((await userRow(person.id)).role).toBe("editor");

    // Lowered again while their pages are open: the staff connection ends, their own stays.
    const pages = new TestClient(server.url);
    await logIn(pages, person.email);
    const staffPage = await liveConnection("/staff", pages);
    const ownPage = await liveConnection("/users", pages);
    expect((await admin.client.form(`/admin/people/${person.id}`, { intent: "role", role: "user" })).status).toBe(302);
    expect(await staffPage.closedByServer).toBe("io server disconnect");
    expect(ownPage.socket.connected).toBe(true);
    expect((await admin.client.form(`/admin/people/${person.id}`, { intent: "role", role: "editor" })).status).toBe(302);

    const [action] = await actionsOn(person.id);
    expect(action).toMatchObject({ action: "role_changed", actorEmail: admin.user.email, details: { from: "user", to: "editor" } });

    const own = await admin.client.form(`/admin/people/${admin.user.id}`, { intent: "role", role: "user" });
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("cannot change your own role");
    expect((await userRow(admin.user.id)).role).toBe("admin");

    const wrong = await admin.client.form(`/admin/people/${person.id}`, { intent: "role", role: "owner" });
    expect(wrong.status).toBe(400);
    expect((await userRow(person.id)).role).toBe("editor");
  });

  test("disabling ends every session at once: the API answers 401, log-in is refused with a clear message; enabling lets them back", async () => {
    const person = await createUser();
    const phone = new TestClient(server.url);
    const laptop = new TestClient(server.url);
    await logIn(phone, person.email);
    await logIn(laptop, person.email);
    expect((await phone.get(`/api/v2/users/${person.id}`)).status).toBe(200);
    expect(await sessionsOf(person.id)).toHaveLength(2);
    const live = [await liveConnection("/users", phone), await liveConnection("/public", laptop)];

    const reply = await admin.client.form(`/admin/people/${person.id}`, { intent: "disable" });
    expect(reply.status).toBe(302);
    // Pages they still have open stop hearing anything, in every namespace.
    expect(await Promise.all(live.map((page) => page.closedByServer))).toEqual(["io server disconnect", "io server disconnect"]);
    expect((await userRow(person.id)).disabledAt).not.toBeNull();
    expect(await sessionsOf(person.id)).toHaveLength(0);
    expect((await phone.get(`/api/v2/users/${person.id}`)).status).toBe(401);
    expect((await laptop.get(`/api/v2/users/${person.id}`)).body).toMatchObject({ success: false, error: { code: "UNAUTHORIZED" } });
    expect((await laptop.get("/api/v2/auth/who-am-i")).body.data).toBeNull();

    const apiLogIn = await new TestClient(server.url).post("/api/v2/auth/login", { email: person.email, password: PASSWORD });
    expect(apiLogIn.status).toBe(403);
    expect(apiLogIn.body).toMatchObject({ success: false, error: { code: "ACCOUNT_DISABLED" } });
    const pageLogIn = await new TestClient(server.url).form("/auth/login", { email: person.email, password: PASSWORD, redirectTo: "/" });
    expect(pageLogIn.status).toBe(403);
    expect(await pageLogIn.text()).toContain("This account has been disabled");
    // A wrong password still says only that: nothing tells a stranger the account exists.
    const wrong = await new TestClient(server.url).post("/api/v2/auth/login", { email: person.email, password: "not the password" });
    expect(wrong.body.error.code).toBe("INVALID_CREDENTIALS");

    expect((await admin.client.form(`/admin/people/${person.id}`, { intent: "enable" })).status).toBe(302);
    expect((await userRow(person.id)).disabledAt).toBeNull();
    await logIn(phone, person.email);
    expect((await phone.get(`/api/v2/users/${person.id}`)).status).toBe(200);
    expect((await actionsOn(person.id)).map((a) => a.action)).toEqual(["account_enabled", "account_disabled"]);

    expect((await admin.client.form(`/admin/people/${admin.user.id}`, { intent: "disable" })).status).toBe(400);
    expect((await userRow(admin.user.id)).disabledAt).toBeNull();
  });

  test("the confirmation e-mail goes again to an account not confirmed yet, through the mail server", async () => {
    const person = await createUser({ verified: false });
    const reply = await admin.client.form(`/admin/people/${person.id}`, { intent: "resend-verification" });
    expect(reply.status).toBe(302);
    await expect.poll(() => smtp.to(person.email).length, { timeout: 15_000 }).toBe(1);
    expect(unfold(smtp.to(person.email)[0]!.raw)).toContain("/auth/activate/");
    expect((await actionsOn(person.id))[0]).toMatchObject({ action: "verification_resent", actorEmail: admin.user.email });

    const confirmed = await createUser();
    expect((await admin.client.form(`/admin/people/${confirmed.id}`, { intent: "resend-verification" })).status).toBe(400);
    expect(smtp.to(confirmed.email)).toHaveLength(0);
  });

  test("impersonating from a person's page switches to them, recorded", async () => {
    const person = await createUser();
    const client = new TestClient(server.url);
    const staff = await createUser({ role: "admin" });
    await logIn(client, staff.email);
    const reply = await client.form(`/admin/people/${person.id}`, { intent: "impersonate" });
    expect(reply.status).toBe(302);
    expect(reply.headers.get("location")).toBe("/dashboard");
    expect((await client.get("/api/v2/auth/who-am-i")).body.data.id).toBe(person.id);
    expect((await actionsOn(person.id))[0]).toMatchObject({ action: "impersonation_started", actorEmail: staff.email });
  });
});

describe("choruses", () => {
  test("staff find a Chorus by part of its title, its event id or its uuid, with its organiser and state", async () => {
    const organiser = await createUser();
    const tag = crypto.randomBytes(3).toString("hex");
    const event = await createPaidTestEvent(organiser, { title: `Grandma turns 90 ${tag}` });
    const other = await createTestEvent(organiser, { title: `Something else ${crypto.randomBytes(3).toString("hex")}` });
    for (const q of [`turns 90 ${tag}`.toUpperCase(), event.eventId, event.uuid, event.id]) {
      const found = await page(editor.client, `/admin/choruses?q=${encodeURIComponent(q)}`);
      expect(found.status, q).toBe(200);
      const rows = tableOf(found.html);
      expect(rows, q).toContain(`/e/${event.uuid}`);
      expect(rows, q).not.toContain(other.uuid);
      expect(rows, q).toContain(organiser.email);
      expect(rows, q).toContain(">Paid<");
    }
    // Editors read the list; only administrators get the organiser's person page.
    expect(tableOf((await page(editor.client, `/admin/choruses?q=${event.uuid}`)).html)).not.toContain("/admin/people/");
    expect(tableOf((await page(admin.client, `/admin/choruses?q=${event.uuid}`)).html)).toContain(`/admin/people/${organiser.id}`);
  });
});

describe("render jobs", () => {
  test("retrying a failed render queues a new job with the same choices, recorded; a running one cannot be retried", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    await addReadyMedia(event, "photo", files, { name: "Bo" });
    const failed = await insertRenderJob(db(), {
      eventId: event.id,
      requestedById: organiser.id,
      publishWhenDone: true,
      resolution: "720p",
    });
    await updateRenderJob(db(), failed.id, { status: "failed", error: "ffmpeg exited with code 1", attempts: 3, finishedAt: new Date() });

    const list = await page(admin.client, "/admin");
    expect(list.html).toContain("ffmpeg exited with code 1");
    expect(list.html).toContain("3 attempts");
    expect(list.html).toContain("Try again");

    const reply = await admin.client.form("/admin", { intent: "retry-render", jobId: failed.id });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain("The render is queued again.");
    const jobs = await db().select().from(renderJobs).where(eq(renderJobs.eventId, event.id)).orderBy(desc(renderJobs.createdAt));
    expect(jobs).toHaveLength(2);
    const retry = jobs[0]!;
    expect(retry).toMatchObject({ status: "queued", resolution: "720p", publishWhenDone: true, requestedById: admin.user.id });
    expect(await jobsOf("render-run", { singletonKey: retry.id })).toHaveLength(1);
    expect(
      await db()
        .select()
        .from(staffActions)
        .where(and(eq(staffActions.subjectId, event.id), eq(staffActions.action, "render_retried"))),
    ).toHaveLength(1);

    const again = await admin.client.post(`/api/admin/renderjobs/${retry.id}/retry`, {});
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: { code: "CONFLICT" } });
  });
});

describe("queue health", () => {
  test("every job kind of the catalogue is listed; a queued job is counted as waiting with its age", async () => {
    const before = await page(admin.client, "/admin/queues");
    expect(before.status).toBe(200);
    for (const name of ["rsvp-invite", "render-run", "media-small", "expired-sessions-sweep"]) expect(before.html).toContain(name);
    const waitingIn = (html: string) => Number(/<code>event-digest<\/code>.*?data-label="Waiting">(\d+)</s.exec(tableOf(html))?.[1]);
    const waitingBefore = waitingIn(before.html);
    await enqueue("event-digest", { eventId: crypto.randomUUID() });
    const after = await page(admin.client, "/admin/queues");
    expect(waitingIn(after.html)).toBe(waitingBefore + 1);
    expect(tableOf(after.html)).toMatch(/<code>event-digest<\/code>.*?data-label="Oldest waiting">\d+ s</s);
  });

  test("two identical sends of a keyed job leave one waiting, under the key the catalogue makes; another Chorus's waits beside it", async () => {
    const [eventId, otherEventId] = [crypto.randomUUID(), crypto.randomUUID()];
    const later = { startAfter: new Date(Date.now() + 3_600_000) };
    await enqueue("event-digest", { eventId }, later);
    await enqueue("event-digest", { eventId }, later);
    await enqueue("event-digest", { eventId: otherEventId }, later);
    const waiting = await jobsOf("event-digest", { data: { eventId } });
    expect(waiting.map((job) => [job.state, job.singletonKey])).toEqual([["created", `digest:${eventId}`]]);
    expect(await jobsOf("event-digest", { data: { eventId: otherEventId } })).toHaveLength(1);
  });
});
