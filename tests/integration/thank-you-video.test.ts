import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { inviteTokenFor } from "~/lib/invite-token.server";
import { listMediaOfEvent } from "~/models/media.server";
import { insertRsvp } from "~/models/rsvp.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { createUser, logIn, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { mp4LikeBytes } from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
  dir = await makeTempDir("thank-you");
});
afterAll(async () => {
  await server.close();
  await dir.remove();
});

describe("the recipient's thank-you video", () => {
  test("sent from the private page without JavaScript, then watched by the organiser and the invitees it thanks", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const rsvp = await insertRsvp(db(), {
      eventId: event.id,
      name: "Lea",
      email: uniqueEmail("lea"),
      phone: null,
      viaEmail: true,
      viaSms: false,
    });
    const clip = dir.path("thanks.mp4");
    await makeClip(clip, { width: 640, height: 360, seconds: 2 });

    const form = new FormData();
    form.set("purpose", "thank_you");
    form.set("privateKey", event.privateKey);
    form.set("contributorName", "Ana");
    form.set("file", new File([await fs.readFile(clip)], "thanks.mp4", { type: "video/mp4" }));
    const recipient = new TestClient(server.url);
    const sent = await recipient.raw("POST", `/e/${event.uuid}/contribute?privateKey=${event.privateKey}`, { body: form });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe(`/e/${event.uuid}?privateKey=${event.privateKey}`);
    await expect
      .poll(async () => (await listMediaOfEvent(db(), event.id, { purpose: "thank_you" })).map((m) => m.status), { timeout: 30_000 })
      .toEqual(["ready"]);

    const organiserClient = new TestClient(server.url);
    await logIn(organiserClient, organiser.email);
    const organiserPage = await (await organiserClient.raw("GET", `/e/${event.uuid}`)).text();
    expect(organiserPage).toContain("A thank-you from the recipient");
    const videoUrl = /<video[^>]*src="([^"]+)"/.exec(organiserPage)![1]!.replaceAll("&amp;", "&");
    const partial = await fetch(`${server.url}${videoUrl}`, { headers: { range: "bytes=0-99" } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-type")).toBe("video/mp4");

    const invitee = await (await new TestClient(server.url).raw("GET", `/e/${event.uuid}?invite=${inviteTokenFor(rsvp.id)}`)).text();
    expect(invitee).toContain("A thank-you from Ana");
    const stranger = await (await new TestClient(server.url).raw("GET", `/e/${event.uuid}`)).text();
    expect(stranger).not.toContain("A thank-you from");
  });

  test("without the private key no thank-you can be sent", async () => {
    const event = await createTestEvent(await createUser());
    const form = new FormData();
    form.set("purpose", "thank_you");
    form.set("privateKey", "not-the-key");
    form.set("file", new File([mp4LikeBytes(100)], "thanks.mp4", { type: "video/mp4" }));
    const client = new TestClient(server.url);
    await client.raw("POST", `/e/${event.uuid}/contribute`, { body: form });
    expect(await listMediaOfEvent(db(), event.id, { purpose: "thank_you" })).toEqual([]);
    expect(await (await client.raw("GET", `/e/${event.uuid}`)).text()).toContain("Only the recipient can add a thank-you video.");
  });
});
