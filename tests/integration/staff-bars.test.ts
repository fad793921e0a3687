import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertOutboxMessage } from "~/models/outbox.server";
import { insertRenderJob } from "~/models/render-job.server";
import type { RunningServer } from "../../server";
import { createUser, loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

// The server runs as `npm run dev` does (NODE_ENV=development), where the developer bar shows; the
// other test files run the production mode, where it never does (http-boundary.test.ts).
let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ NODE_ENV: "development" });
});
afterAll(() => server.close());

const page = async (client: TestClient, path: string) => (await client.raw("GET", path)).text();
const adminToolsOf = (html: string) => html.match(/<nav class="staff-bar[^"]*" aria-label="Admin tools">.*?<\/nav>/s)?.[0] ?? null;
const developerToolsOf = (html: string) =>
  html.match(/<aside class="developer-bar" aria-label="Developer tools">.*?<\/aside>/s)?.[0] ?? null;
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("the admin tools bar", () => {
  test("staff see it on a Chorus's pages with that Chorus in the console, its renders and its state", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser, { title: "Nana's 90th" });
    await insertRenderJob(db(), { eventId: event.id, requestedById: organiser.id, publishWhenDone: false, resolution: "720p" });

    const editor = await loggedInUser(server.url, "editor");
    const bar = adminToolsOf(await page(editor.client, `/e/${event.uuid}`))!;
    expect(bar).not.toBeNull();
    expect(bar).toContain(`href="/admin/choruses?q=${event.uuid}"`);
    expect(text(bar)).toContain("1 render, latest waiting");
    expect(text(bar)).toContain("Not paid");
    // The organiser's account and the queues are for administrators.
    expect(bar).not.toContain(`/admin/people/${organiser.id}`);
    expect(bar).not.toContain("/admin/queues");

    const admin = await loggedInUser(server.url, "admin");
    const adminBar = adminToolsOf(await page(admin.client, `/e/${event.uuid}/arrange`))!;
    expect(adminBar).toContain(`href="/admin/people/${organiser.id}"`);
    expect(adminBar).toContain('href="/admin/queues"');
    // Elsewhere it leads to the console and the Choruses.
    const elsewhere = adminToolsOf(await page(admin.client, "/dashboard"))!;
    expect(elsewhere).toContain('href="/admin/choruses"');
    expect(elsewhere).not.toContain("This Chorus");
  });

  test("organisers, contributors and visitors never see it", async () => {
    const organiser = await loggedInUser(server.url);
    const event = await createTestEvent(organiser.user);
    expect(adminToolsOf(await page(organiser.client, `/e/${event.uuid}`))).toBeNull();
    expect(adminToolsOf(await page(new TestClient(server.url), `/e/${event.uuid}`))).toBeNull();
    expect(adminToolsOf(await page(new TestClient(server.url), "/"))).toBeNull();
  });

  test("an admin acting as someone else sees who, and the way back, on every page", async () => {
    const admin = await loggedInUser(server.url, "admin");
    const target = await createUser();
    expect((await admin.client.get(`/api/v2/auth/impersonate/${target.id}`)).status).toBe(200);
    const bar = adminToolsOf(await page(admin.client, "/dashboard"))!;
    expect(text(bar)).toContain(`You are acting as ${target.email} .`);
    expect(bar).toContain('action="/admin/stop-impersonating"');
  });
});

describe("the developer tools bar", () => {
  test("under npm run dev, every page says the build, the database, the outbox and the jobs waiting", async () => {
    await insertOutboxMessage(db(), { channel: "email", to: "someone@example.test", subject: "Hello", text: "Hello" });
    const bar = developerToolsOf(await page(new TestClient(server.url), "/"))!;
    expect(bar).not.toBeNull();
    const said = text(bar);
    expect(said).toMatch(/Build: \d{2}:\d{2}:\d{2}/);
    const database = new URL(process.env.DATABASE_URL!);
    expect(said).toContain(`Database: ${database.hostname}:${database.port}${database.pathname}`);
    // Never the credentials.
    expect(bar).not.toContain("postgres:postgres@");
    expect(said).toMatch(/Outbox: [1-9]\d*/);
    expect(said).toMatch(/Jobs: \d+ waiting, \d+ running/);
  });
});
