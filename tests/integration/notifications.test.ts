import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { createUser, loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const loggedIn = (role?: "user" | "editor" | "admin") => loggedInUser(server.url, role);

function listen(namespace: string, cookie: string) {
  const socket: Socket = connect(`${server.url}${namespace}`, {
    transports: ["websocket"],
    extraHeaders: { cookie },
    forceNew: true,
    reconnection: false,
  });
  const heard: Record<string, unknown[]> = {};
  socket.onAny((name: string, payload: unknown) => (heard[name] ??= []).push(payload));
  const ready = new Promise<void>((resolve) => socket.on("session:ready", () => resolve()));
  return { socket, heard, ready };
}

describe("reports and notifications", () => {
  test("a report reaches staff as a stored notification, live on /users and on /staff; they mark it seen then read", async () => {
    const event = await createTestEvent(await createUser());
    const admin = await loggedIn("admin");
    const live = listen("/users", admin.client.cookieHeader());
    const staff = listen("/staff", admin.client.cookieHeader());
    await Promise.all([live.ready, staff.ready]);

    const reply = await new TestClient(server.url).post(`/api/v2/events/${event.id}/report`, { reason: "Spam" });
    expect(reply.status).toBe(200);

    await expect.poll(() => live.heard["notification:new"]?.length ?? 0).toBeGreaterThan(0);
    await expect.poll(() => staff.heard["event:reported"]?.length ?? 0).toBe(1);
    expect(staff.heard["event:reported"]![0]).toMatchObject({ eventId: event.id, reason: "Spam" });

    const list = await admin.client.get("/api/v2/notifications");
    const notification = list.body.data.find((n: { eventId: string }) => n.eventId === event.id);
    expect(notification).toMatchObject({ kind: "event.reported", body: "Spam", seenAt: null, readAt: null });

    const seen = await admin.client.post(`/api/v2/notifications/${notification.id}/seen`);
    expect(seen.body.data.seenAt).not.toBeNull();
    expect(seen.body.data.readAt).toBeNull();
    const read = await admin.client.post(`/api/v2/notifications/${notification.id}/read`);
    expect(read.body.data.readAt).not.toBeNull();
    // Seen and read are moments, each set once: reading keeps when it was seen, and marking again
    // changes neither.
    expect(read.body.data.seenAt).toBe(seen.body.data.seenAt);
    const seenAgain = await admin.client.post(`/api/v2/notifications/${notification.id}/seen`);
    const readAgain = await admin.client.post(`/api/v2/notifications/${notification.id}/read`);
    expect(seenAgain.body.data.seenAt).toBe(seen.body.data.seenAt);
    expect(readAgain.body.data).toMatchObject({ seenAt: seen.body.data.seenAt, readAt: read.body.data.readAt });

    const stranger = await loggedIn();
    expect((await stranger.client.post(`/api/v2/notifications/${notification.id}/read`)).status).toBe(404);
    expect((await stranger.client.get("/api/v2/notifications")).body.data).toEqual([]);
    live.socket.close();
    staff.socket.close();
  });

  test("reports are rate-limited per address and a plain form post returns to the page with a toast", async () => {
    const event = await createTestEvent(await createUser());
    const c = new TestClient(server.url);
    const form = await c.form(`/api/v2/events/${event.id}/report`, { reason: "" });
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toBe(`/e/${event.uuid}`);
    expect(c.hasCookie("__toast")).toBe(true);
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await c.post(`/api/v2/events/${event.id}/report`, {})).status);
    expect(statuses).toContain(429);
  });

  test("reporting an unknown event is a 404", async () => {
    const reply = await new TestClient(server.url).post("/api/v2/events/00000000-0000-0000-0000-000000000000/report", {});
    expect(reply.status).toBe(404);
  });
});
