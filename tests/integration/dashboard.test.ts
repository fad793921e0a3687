import crypto from "node:crypto";
import { events, rsvps, type User } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertMedia } from "~/models/media.server";
import { createEvent, parseNewEvent } from "~/services/events/events.server";
import type { RunningServer } from "../../server";
import { createUser, logIn } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;

async function pageOf(response: Response) {
  return (await response.text()).replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/** "Fri 4 Dec 2026" */
function dayInLondon(date: Date) {
  const part = (options: Intl.DateTimeFormatOptions) => date.toLocaleDateString("en-US", { timeZone: "Europe/London", ...options });
  return `${part({ weekday: "short" })} ${part({ day: "numeric" })} ${part({ month: "short" })} ${part({ year: "numeric" })}`;
}

async function dashboardOf(user: User) {
  const client = new TestClient(server.url);
  await logIn(client, user.email);
  const response = await client.raw("GET", "/dashboard");
  expect(response.status).toBe(200);
  const page = await pageOf(response);
  // The two sections, so each assertion looks in the right one.
  const [started, contributed] = page.split("I contributed to");
  return { started: started!, contributed: contributed! };
}

async function startEvent(creator: User, firstName: string, fields: Record<string, unknown> = {}) {
  const input = parseNewEvent({
    occasion: "birthday",
    recipients: [{ firstName, lastName: "Test" }],
    deadline: new Date(Date.now() + 30 * DAY).toISOString(),
    timeZone: "Europe/London",
    ...fields,
  });
  return createEvent(creator, input);
}

/** An invitee; one who contributed also sent a clip (a media record; its file is not needed here). */
async function invite(eventId: string, email: string, status: "invited" | "contributed") {
  const [rsvp] = await db()
    .insert(rsvps)
    .values({ eventId, name: email.split("@")[0]!, email, status, inviteTokenHash: crypto.randomBytes(16).toString("hex") })
    .returning();
  if (status === "contributed") {
    const uploadId = `test-${crypto.randomUUID()}`;
    await insertMedia(db(), {
      eventId,
      purpose: "contribution",
      originalKey: `test/${uploadId}`,
      originalName: "clip.mp4",
      mimeType: "video/mp4",
      sizeBytes: 1,
      uploadId,
      rsvpId: rsvp!.id,
    });
  }
}

describe("My Choruses", () => {
  test("logged-out visitors are sent to log in and come back afterwards", async () => {
    const response = await new TestClient(server.url).raw("GET", "/dashboard");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/auth/login?redirectTo=${encodeURIComponent("/dashboard")}`);
  });

  test("a new organiser sees the empty states and a way to start", async () => {
    const { started, contributed } = await dashboardOf(await createUser());
    expect(started).toContain("My Choruses");
    expect(started).toContain("You haven't started a Chorus yet");
    expect(started).toMatch(/<a class="button"[^>]*href="\/start-a-chorus">Start a Chorus<\/a>/);
    expect(contributed).toContain("When someone invites you to add a clip");
  });

  test("started and contributed Choruses are listed with their headline, status and deadline", async () => {
    const ana = await createUser();
    const other = await createUser();

    const deadline = new Date(Date.now() + 30 * DAY);
    deadline.setUTCHours(12, 0, 0, 0);
    const birthday = await startEvent(ana, "Yara", { deadline: deadline.toISOString() });
    const farewell = await startEvent(ana, "Xavi", { occasion: "farewell" });
    await db()
      .update(events)
      .set({ deadline: new Date(Date.now() - DAY) })
      .where(eq(events.id, farewell.id));
    const delivered = await startEvent(ana, "Wren", { occasion: "other", occasionOther: "Promotion" });
    await db().update(events).set({ status: "delivered" }).where(eq(events.id, delivered.id));

    const invitedTo = await startEvent(other, "Vera", { occasion: "retirement" });
    await invite(invitedTo.id, ana.email.toUpperCase(), "contributed");
    await invite(invitedTo.id, "someone@example.test", "invited");
    const notMine = await startEvent(other, "Ulla");

    const { started, contributed } = await dashboardOf(ana);
    expect(started).toContain(`href="/e/${birthday.uuid}"`);
    expect(started).toContain("Yara's birthday");
    expect(started).toContain("Collecting");
    expect(started).toContain(`Deadline <time dateTime="${deadline.toISOString()}">${dayInLondon(deadline)}</time>`);
    expect(started).toContain("Xavi's farewell");
    expect(started).toContain("Deadline passed");
    expect(started).toContain("Wren's Promotion");
    expect(started).toContain("Delivered");
    expect(started).toContain("No one invited yet");

    expect(contributed).toContain("Vera's retirement");
    expect(contributed).toContain(`href="/e/${invitedTo.uuid}"`);
    expect(contributed).toContain("1 contribution<");
    expect(contributed).not.toContain("invited");

    expect(started + contributed).not.toContain("Ulla");
    expect(started + contributed).not.toContain(notMine.uuid);
  });

  test("the organiser's Choruses show how many contributed and were invited", async () => {
    const ana = await createUser();
    const birthday = await startEvent(ana, "Yara");
    await invite(birthday.id, "one@example.test", "contributed");
    await invite(birthday.id, "two@example.test", "contributed");
    await invite(birthday.id, "three@example.test", "invited");
    const { started } = await dashboardOf(ana);
    expect(started).toContain("2 contributions");
    expect(started).toContain("3 people invited");
  });

  test("another person's Choruses never show", async () => {
    const owner = await createUser();
    const event = await startEvent(owner, "Tomasz");
    const { started, contributed } = await dashboardOf(await createUser());
    expect(started + contributed).not.toContain("Tomasz");
    expect(started + contributed).not.toContain(event.uuid);
    expect(started).toContain("You haven't started a Chorus yet");
  });

  test("an unfinished draft is offered back", async () => {
    const user = await createUser();
    const client = new TestClient(server.url);
    await client.form("/start-a-chorus?step=recipients", { "recipients.0.firstName": "Sol" });
    await logIn(client, user.email);
    const page = await pageOf(await client.raw("GET", "/dashboard"));
    expect(page).toContain("for Sol");
    expect(page).toContain('href="/start-a-chorus?step=review"');
  });
});
