import crypto from "node:crypto";
import type { Event, User } from "drizzle/schema";
import { guestbookEntries, media } from "drizzle/schema";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { hashToken } from "~/lib/tokens.server";
import { insertMedia } from "~/models/media.server";
import type { RunningServer } from "../../server";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { allowConsoleError } from "../support/fail-on-console-error";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";
import { encodeMetadata, TUS_ENDPOINT } from "../support/tus-client";

let server: RunningServer;
let organiser: TestClient;
let organiserUser: User;
let event: Event;
const NUL = "Ana\u0000";
const HALF_EMOJI = "Ana \uD83D";

beforeAll(async () => {
  server = await startTestServer();
  const signedIn = await loggedInUser(server.url);
  organiser = signedIn.client;
  organiserUser = signedIn.user;
  event = await createTestEvent(signedIn.user);
});
afterAll(() => server.close());

const refusedField = (reply: { status: number; body: any }, field: string) => {
  expect(reply.status).toBe(400);
  expect(reply.body).toMatchObject({
    success: false,
    error: { code: "VALIDATION_FAILED", fields: { [field]: expect.stringContaining("cannot store") } },
  });
};

describe("text with a NUL or half a surrogate pair is a 400 naming the field", () => {
  test("the organiser's event title, recipient names, invitee names and broadcast", async () => {
    refusedField(await organiser.put(`/api/v2/events/${event.id}`, { title: NUL }), "title");
    refusedField(await organiser.post("/api/v2/recipients", { eventId: event.id, firstName: HALF_EMOJI }), "firstName");
    refusedField(await organiser.post("/api/v2/rsvps", { eventId: event.id, name: NUL, email: uniqueEmail() }), "name");
    refusedField(await organiser.post("/api/mail/broadcast", { eventId: event.id, message: NUL }), "message");
  });

  test("registering, and reporting an event", async () => {
    const visitor = new TestClient(server.url);
    refusedField(
      await visitor.post("/api/v2/auth/register", { email: uniqueEmail(), password: "long enough password", firstName: NUL }),
      "firstName",
    );
    refusedField(await visitor.post(`/api/v2/events/${event.id}/report`, { reason: HALF_EMOJI }), "reason");
  });

  test("a contributor's caption, by upload token", async () => {
    const token = crypto.randomBytes(24).toString("base64url");
    const item = await insertMedia(db(), {
      eventId: event.id,
      purpose: "contribution",
      originalKey: `events/${event.id}/uploads/${crypto.randomUUID()}`,
      originalName: "clip.mp4",
      mimeType: "video/mp4",
      sizeBytes: 1000,
      contributorName: "Cy",
      caption: "",
      uploadTokenHash: hashToken(token),
      uploadId: `test-${crypto.randomUUID()}`,
    });
    const reply = await new TestClient(server.url).json("PUT", `/api/v2/media/${item.id}`, { caption: NUL }, { "x-upload-token": token });
    refusedField(reply, "caption");
  });

  test("the recipient's thank-you message, posted from the event page", async () => {
    const recipient = new TestClient(server.url);
    const reply = await recipient.raw(
      "POST",
      `/e/${event.uuid}?privateKey=${event.privateKey}&_data=${encodeURIComponent("routes/e.$uuid")}`,
      {
        body: new URLSearchParams({ intent: "thank-you", thankYouMessage: NUL }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      },
    );
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({ intent: "thank-you", errors: { thankYouMessage: expect.stringContaining("cannot store") } });
  });

  test("the no-JavaScript contribution form and guestbook come back to the page with the error, storing nothing", async () => {
    const visitor = new TestClient(server.url);
    const upload = new FormData();
    upload.append("contributorName", "Cy");
    upload.append("caption", NUL);
    const photo = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#c33" } })
      .jpeg()
      .toBuffer();
    upload.append("file", new File([photo], "photo.jpg", { type: "image/jpeg" }));
    const withFile = await visitor.raw("POST", `/e/${event.uuid}/contribute`, { body: upload });
    expect(withFile.status).toBe(302);
    expect(withFile.headers.get("location")).toBe(`/e/${event.uuid}`);

    const words = new FormData();
    words.append("contributorName", NUL);
    words.append("caption", "Happy birthday");
    const book = await createTestEvent(organiserUser, { guestbook: true });
    const guestbook = await visitor.raw("POST", `/e/${book.uuid}/contribute`, { body: words });
    expect(guestbook.status).toBe(302);
    expect(guestbook.headers.get("location")).toBe(`/e/${book.uuid}`);

    expect(
      await db()
        .select()
        .from(media)
        .where(and(eq(media.eventId, event.id), eq(media.originalName, "photo.jpg"))),
    ).toEqual([]);
    expect(await db().select().from(guestbookEntries).where(eq(guestbookEntries.eventId, book.id))).toEqual([]);
  });

  test("tus upload metadata", async () => {
    const reply = await new TestClient(server.url).raw("POST", TUS_ENDPOINT, {
      headers: {
        "tus-resumable": "1.0.0",
        "upload-length": "10",
        "upload-metadata": encodeMetadata({
          eventUuid: event.uuid,
          filetype: "video/mp4",
          caption: NUL,
          uploadToken: crypto.randomBytes(24).toString("base64url"),
        }),
      },
    });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({
      success: false,
      error: { code: "BAD_UPLOAD_METADATA", fields: { caption: expect.stringContaining("cannot store") } },
    });
  });
});

describe("an upload the database refuses", () => {
  test("answers the generic 500 without the statement, and logs it", async () => {
    const logged = allowConsoleError();
    // A real database error at the insert that records a finished upload.
    await db().execute(sql`create or replace function refuse_test_media() returns trigger as $$ begin
      if new.caption = 'refused by the database' then raise exception 'refused for this test'; end if; return new; end $$ language plpgsql`);
    await db().execute(sql`create trigger refuse_test_media before insert on media for each row execute function refuse_test_media()`);
    try {
      const photo = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#c33" } })
        .jpeg()
        .toBuffer();
      const reply = await new TestClient(server.url).raw("POST", TUS_ENDPOINT, {
        body: photo,
        headers: {
          "tus-resumable": "1.0.0",
          "upload-length": String(photo.length),
          "content-type": "application/offset+octet-stream",
          "upload-metadata": encodeMetadata({
            eventUuid: event.uuid,
            filetype: "image/jpeg",
            filename: "photo.jpg",
            caption: "refused by the database",
            uploadToken: crypto.randomBytes(24).toString("base64url"),
          }),
        },
      });
      const text = await reply.text();
      expect(reply.status).toBe(500);
      expect(JSON.parse(text)).toEqual({ success: false, error: { code: "INTERNAL", message: expect.any(String) } });
      expect(text).not.toMatch(/insert into|"media"|refused/i);
      expect(logged.mock.calls.map((call) => call.map(String).join(" ")).join("\n")).toMatch(/upload failed/);
    } finally {
      await db().execute(sql`drop trigger refuse_test_media on media`);
      await db().execute(sql`drop function refuse_test_media()`);
      logged.mockRestore();
    }
  });
});
