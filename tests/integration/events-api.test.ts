import { events } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PROTECTED_EVENT_FIELDS } from "~/domain/event-fields";
import { db } from "~/lib/db.server";
import type { RunningServer } from "../../server";
import { createUser, logIn, loggedInUser } from "../support/accounts";
import { createTestEvent, inDays } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const organiser = () => loggedInUser(server.url);

describe("starting a Chorus through the API", () => {
  test("POST /api/event creates it with its recipients and keys, and records analyticsClientId", async () => {
    const { client } = await organiser();
    const reply = await client.post("/api/event", {
      occasion: "retirement",
      recipients: [{ firstName: "Marcus", lastName: "Reed" }, { firstName: "Jo" }],
      deadline: inDays(7).toISOString(),
      prompts: ["Your best story with them", ""],
      analyticsClientId: "123.456",
    });
    expect(reply.status).toBe(201);
    const view = reply.body.data;
    expect(view.headline).toBe("Marcus and Jo's retirement");
    expect(view.recipients.map((r: { firstName: string }) => r.firstName)).toEqual(["Marcus", "Jo"]);
    expect(view.prompts).toEqual(["Your best story with them"]);
    expect(view.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(view.viewKey).not.toBe(view.privateKey);
    expect(view.eventId).toMatch(/^CH-[0-9A-Z]{8}$/);
    const [row] = await db().select().from(events).where(eq(events.id, view.id));
    expect(row!.analyticsClientId).toBe("123.456");
  });

  test.each([
    ["an unknown occasion", { occasion: "coronation" }, "occasion"],
    ["an occasion not offered in the app", { occasion: "school" }, "occasion"],
    ["other without a label", { occasion: "other" }, "occasionOther"],
    ["no recipients", { recipients: [] }, "recipients"],
    ["a recipient without a name", { recipients: [{ firstName: " " }] }, "recipients.0.firstName"],
    ["a deadline in the past", { deadline: inDays(-1).toISOString() }, "deadline"],
    ["a deadline that is not a date", { deadline: "soon" }, "deadline"],
    ["too many prompts", { prompts: Array.from({ length: 11 }, (_, i) => `Q${i}`) }, "prompts"],
    ["an oversized prompt", { prompts: ["x".repeat(301)] }, "prompts.0"],
  ])("%s is a 400 naming the field", async (_name, override, field) => {
    const { client } = await organiser();
    const reply = await client.post("/api/event", {
      occasion: "birthday",
      recipients: [{ firstName: "Ana" }],
      deadline: inDays(7).toISOString(),
      ...override,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.fields[field]).toEqual(expect.any(String));
  });

  test("logged-out callers cannot create", async () => {
    const reply = await new TestClient(server.url).post("/api/event", { occasion: "birthday" });
    expect(reply.status).toBe(401);
  });
});

describe("PUT /api/v2/events/{id}", () => {
  test("none of the protected fields can be changed this way", async () => {
    const { user, client } = await organiser();
    const event = await createTestEvent(user);
    const attempt = Object.fromEntries(
      PROTECTED_EVENT_FIELDS.map((f) => [f, f === "paid" || f.startsWith("via") || f === "contributorsNotified" ? true : "forged"]),
    );
    const reply = await client.put(`/api/v2/events/${event.id}`, { ...attempt, title: "Still changes" });
    expect(reply.status).toBe(200);
    const [after] = await db().select().from(events).where(eq(events.id, event.id));
    for (const field of PROTECTED_EVENT_FIELDS) {
      if (field === "recipients") continue;
      expect(after![field as keyof typeof after]).toEqual(event[field as keyof typeof event]);
    }
    expect(after!.title).toBe("Still changes");
    expect(reply.body.data.recipients).toHaveLength(1);
  });

  test("the recipient changes only their thank-you message, without logging in", async () => {
    const event = await createTestEvent(await createUser());
    const anonymous = new TestClient(server.url);
    const thanks = await anonymous.put(`/api/v2/events/${event.id}?privateKey=${event.privateKey}`, { thankYouMessage: "Thank you all!" });
    expect(thanks.status).toBe(200);
    expect(thanks.body.data.thankYouMessage).toBe("Thank you all!");
    const sneaky = await anonymous.put(`/api/v2/events/${event.id}?privateKey=${event.privateKey}`, { deadline: inDays(30).toISOString() });
    expect(sneaky.status).toBe(403);
    const wrongKey = await anonymous.put(`/api/v2/events/${event.id}?privateKey=${event.viewKey}`, { thankYouMessage: "x" });
    expect(wrongKey.status).toBe(401);
  });

  test("bad values are field errors; the organiser can close and extend", async () => {
    const { user, client } = await organiser();
    const event = await createTestEvent(user);
    expect(
      (await client.put(`/api/v2/events/${event.id}`, { deadline: inDays(-2).toISOString() })).body.error.fields.deadline,
    ).toBeDefined();
    expect((await client.put(`/api/v2/events/${event.id}`, { status: "delivered" })).status).toBe(400);
    expect((await client.put(`/api/v2/events/${event.id}`, { surprise: 1 })).status).toBe(400);
    expect((await client.put(`/api/v2/events/${event.id}`, { status: "closed" })).body.data.acceptsContributions).toBe(false);
    const reopened = await client.put(`/api/v2/events/${event.id}`, { status: "active", deadline: inDays(20).toISOString() });
    expect(reopened.body.data.acceptsContributions).toBe(true);
  });
});

describe("recipients", () => {
  test("the organiser adds, renames and removes recipients, but never the last one", async () => {
    const { user, client } = await organiser();
    const event = await createTestEvent(user);
    const added = await client.post("/api/v2/recipients", {
      eventId: event.id,
      firstName: "Bo",
      lastName: "Lee",
      email: "bo@example.test",
      phone: "+44 7911 123456",
    });
    expect(added.status).toBe(201);
    expect(added.body.data.phone).toBe("+447911123456");
    // A PUT changes only the fields it sends: the name, e-mail and phone not sent stay as they were.
    const renamed = await client.put(`/api/v2/recipients/${added.body.data.id}`, { firstName: "Bob" });
    expect(renamed.body.data).toMatchObject({ firstName: "Bob", lastName: "Lee", email: "bo@example.test", phone: "+447911123456" });
    // Sent empty, a field is emptied.
    const cleared = await client.put(`/api/v2/recipients/${added.body.data.id}`, { lastName: "", email: "" });
    expect(cleared.body.data).toMatchObject({ firstName: "Bob", lastName: "", email: null, phone: "+447911123456" });
    expect((await client.put(`/api/v2/recipients/${added.body.data.id}`, { phone: "12" })).status).toBe(400);
    expect((await client.delete(`/api/v2/recipients/${added.body.data.id}`)).status).toBe(200);
    const view = await client.get(`/api/event/${event.id}`);
    const last = view.body.data.event.recipients[0].id;
    const refused = await client.delete(`/api/v2/recipients/${last}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("LAST_RECIPIENT");
  });
});

describe("the event's viewers", () => {
  test("each key opens its own view, and a rotated key stops working", async () => {
    const { user, client } = await organiser();
    const event = await createTestEvent(user);
    const anonymous = new TestClient(server.url);
    expect((await anonymous.get(`/api/event/${event.id}?privateKey=${event.privateKey}`)).body.data.role).toBe("recipient");
    expect((await anonymous.get(`/api/event/${event.id}?viewKey=${event.viewKey}`)).body.data.role).toBe("view-only");
    const publicView = await anonymous.get(`/api/event/${event.id}`);
    expect(publicView.body.data).toMatchObject({ role: "public", contributor: true });
    expect(JSON.stringify(publicView.body)).not.toContain(event.privateKey);

    const opened = await anonymous.post(`/api/v2/events/${event.id}/opened?privateKey=${event.privateKey}`);
    expect(opened.status).toBe(200);
    const again = await anonymous.post(`/api/v2/events/${event.id}/opened?privateKey=${event.privateKey}`);
    expect(again.body.data.openedAt).toBe(opened.body.data.openedAt);

    // Rotation is a page action; the service is what it calls.
    const { rotateKey } = await import("~/services/events/events.server");
    await rotateKey(event, "privateKey");
    expect((await anonymous.get(`/api/event/${event.id}?privateKey=${event.privateKey}`)).body.data.role).toBe("public");
    expect((await client.get(`/api/event/${event.id}`)).body.data.event.privateKey).not.toBe(event.privateKey);
  });

  test("GET /api/events lists only my events; contributed lists where I was invited", async () => {
    const { user, client } = await organiser();
    const mine = await createTestEvent(user);
    const someoneElse = await createTestEvent(await createUser());
    const list = await client.get("/api/events");
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([mine.id]);
    expect(JSON.stringify(list.body)).not.toContain(someoneElse.uuid);

    const owner = await createUser();
    const ownerClient = new TestClient(server.url);
    await logIn(ownerClient, owner.email);
    const theirs = await createTestEvent(owner);
    await ownerClient.post("/api/v2/rsvps", { eventId: theirs.id, name: "Me", email: user.email });
    const contributed = await client.get("/api/v2/events/contributed");
    expect(contributed.body.data.map((e: { uuid: string }) => e.uuid)).toEqual([theirs.uuid]);
    expect(JSON.stringify(contributed.body)).not.toContain(theirs.privateKey);
  });
});
