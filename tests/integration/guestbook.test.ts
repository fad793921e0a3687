import { events, guestbookEntries } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { setEventPaid } from "~/models/event.server";
import type { RunningServer } from "../../server";
import { createUser, logIn } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A multipart post like a browser without JavaScript sends, the file input left empty. */
function messageOnly(client: TestClient, uuid: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new File([], ""), "");
  return client.raw("POST", `/e/${uuid}/contribute`, { body: form });
}

describe("a Wedding Guestbook, end to end without JavaScript", () => {
  test("started as a Wedding Guestbook, signed with words only, read by the organiser, and by the couple once paid for", async () => {
    const organiser = await createUser();
    const client = new TestClient(server.url);
    await logIn(client, organiser.email);
    const step = (name: string) => `/start-a-chorus?step=${name}`;
    expect((await client.form(step("occasion"), { occasion: "wedding-guestbook", guestbook: "on", intent: "next" })).status).toBe(302);
    await client.form(step("recipients"), {
      "recipients.0.firstName": "Ana",
      "recipients.0.lastName": "Silva",
      "recipients.1.firstName": "Bo",
      "recipients.1.lastName": "",
    });
    await client.form(step("details"), {
      deadlineDate: daysAhead(20),
      deadlineTime: "20:00",
      timeZone: "Europe/Lisbon",
      title: "",
      message: "Leave us a word!",
    });
    const created = await client.form(step("review"), { intent: "create" });
    const uuid = /\/e\/([0-9a-f-]{36})/.exec(created.headers.get("location") ?? "")![1]!;
    const [event] = await db().select().from(events).where(eq(events.uuid, uuid));
    expect(event).toMatchObject({ occasion: "wedding", guestbook: true });

    const guestPage = await (await new TestClient(server.url).raw("GET", `/e/${uuid}`)).text();
    expect(guestPage).toContain("Ana and Bo&#x27;s Wedding Guestbook");
    expect(guestPage).toContain("Sign the guestbook");

    const guest = new TestClient(server.url);
    const signed = await messageOnly(guest, uuid, { contributorName: "Aunt May", caption: "Wishing you a lifetime of laughter." });
    expect(signed.status).toBe(302);
    expect(guest.hasCookie("__toast")).toBe(true);
    const entries = await db().select().from(guestbookEntries).where(eq(guestbookEntries.eventId, event!.id));
    expect(entries.map((e) => [e.name, e.message])).toEqual([["Aunt May", "Wishing you a lifetime of laughter."]]);

    const coupleReads = async () => (await new TestClient(server.url).raw("GET", `/e/${uuid}?privateKey=${event!.privateKey}`)).text();
    // What the guestbook gives the couple opens with paying for it (docs/decisions/045).
    expect(await coupleReads()).not.toContain("Wishing you");
    await setEventPaid(db(), event!.id, true);
    const couple = await coupleReads();
    expect(couple).toContain("Wishing you a lifetime of laughter.");
    expect(couple).toContain("Aunt May");
    const organiserPage = await (await client.raw("GET", `/e/${uuid}`)).text();
    expect(organiserPage).toContain("Guestbook messages (1)");
    // The public page of a guestbook never shows the messages.
    expect(guestPage).not.toContain("Wishing you");
  });

  test("a message without a name or text is refused with a clear reason and nothing is stored", async () => {
    const event = await createTestEvent(await createUser(), { occasion: "wedding", guestbook: true });
    const guest = new TestClient(server.url);
    const reply = await messageOnly(guest, event.uuid, { contributorName: "", caption: "" });
    expect(reply.status).toBe(302);
    const page = await (await guest.raw("GET", `/e/${event.uuid}`)).text();
    expect(page).toContain("Tell us your name.");
    expect(await db().select().from(guestbookEntries).where(eq(guestbookEntries.eventId, event.id))).toEqual([]);
  });

  test("outside guestbook mode a post without a file asks for one", async () => {
    const event = await createTestEvent(await createUser());
    const guest = new TestClient(server.url);
    await messageOnly(guest, event.uuid, { contributorName: "Sam", caption: "Hi!" });
    const page = await (await guest.raw("GET", `/e/${event.uuid}`)).text();
    expect(page).toContain("Choose a photo or a video to upload.");
  });
});
