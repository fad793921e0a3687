import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import type { NotificationPayload } from "~/realtime/events";
import { roomOfUser } from "~/realtime/events";
import { postgresEmitter } from "~/realtime/fan-out.server";
import type { RunningServer } from "../../server";
import { createUser, logIn } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { testDatabaseUrl } from "../support/test-database";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Connects to a namespace with a cookie; resolves with the greeting or the refusal. */
function tryConnect(namespace: string, cookie = "", headers: Record<string, string> = {}) {
  const socket: Socket = connect(`${server.url}${namespace}`, {
    transports: ["websocket"],
    extraHeaders: { cookie, ...headers },
    reconnection: false,
    // A new connection each time: a shared manager would reuse the first cookie.
    forceNew: true,
  });
  return new Promise<{ ok: true; userId: string | null } | { ok: false; reason: string }>((resolve) => {
    socket.on("session:ready", (info: { userId: string | null }) => {
      resolve({ ok: true, userId: info.userId });
      socket.close();
    });
    socket.on("connect_error", (error) => {
      resolve({ ok: false, reason: error.message });
      socket.close();
    });
  });
}

async function cookieOf(role: "user" | "editor" | "admin") {
  const user = await createUser({ role });
  const client = new TestClient(server.url);
  await logIn(client, user.email);
  return { user, cookie: client.cookieHeader() };
}

describe("the handshake's origin", () => {
  test("a page of another site cannot open a socket with a staff member's cookie", async () => {
    const { user, cookie } = await cookieOf("admin");
    expect(await tryConnect("/staff", cookie, { origin: "http://evil.example" })).toMatchObject({ ok: false });
    expect(await tryConnect("/users", cookie, { origin: "null" })).toMatchObject({ ok: false });
    expect(await tryConnect("/staff", cookie, { origin: new URL(server.url).origin })).toEqual({ ok: true, userId: user.id });
  });

  test("the long-polling transport is refused too", async () => {
    const handshake = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: "http://evil.example" } });
    expect(handshake.status).toBe(403);
    const own = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: new URL(server.url).origin } });
    expect(own.status).toBe(200);
  });
});

describe("socket.io namespaces", () => {
  test("/public accepts anyone", async () => {
    expect(await tryConnect("/public")).toEqual({ ok: true, userId: null });
  });

  test("/users needs a logged-in user, read from the session cookie", async () => {
    expect(await tryConnect("/users")).toEqual({ ok: false, reason: "unauthorized" });
    const { user, cookie } = await cookieOf("user");
    expect(await tryConnect("/users", cookie)).toEqual({ ok: true, userId: user.id });
  });

  test("/staff needs an admin or an editor", async () => {
    expect(await tryConnect("/staff", (await cookieOf("user")).cookie)).toEqual({ ok: false, reason: "forbidden" });
    for (const role of ["editor", "admin"] as const) {
      const { user, cookie } = await cookieOf(role);
      expect(await tryConnect("/staff", cookie)).toEqual({ ok: true, userId: user.id });
    }
  });

  test("other namespaces do not exist", async () => {
    expect((await tryConnect("/")).ok).toBe(false);
    expect((await tryConnect("/admin")).ok).toBe(false);
  });

  test("a forged cookie is treated as nobody", async () => {
    expect(await tryConnect("/users", "__session=forged-session-id")).toEqual({ ok: false, reason: "unauthorized" });
  });
});

describe("updates from other processes", () => {
  const notification = (title: string, body: string): NotificationPayload => ({
    id: crypto.randomUUID(),
    kind: "test",
    title,
    body,
    url: null,
    eventId: null,
    createdAt: new Date().toISOString(),
    seenAt: null,
    readAt: null,
  });

  test("a worker's emitter reaches sockets of this server, in the room it names only, however large", async () => {
    const [ana, ben] = [await cookieOf("user"), await cookieOf("user")];
    const listeners = [ana, ben].map(({ cookie }) => {
      const socket: Socket = connect(`${server.url}/users`, {
        transports: ["websocket"],
        extraHeaders: { cookie },
        reconnection: false,
        forceNew: true,
      });
      const heard: NotificationPayload[] = [];
      socket.on("notification:new", (payload: NotificationPayload) => heard.push(payload));
      return { socket, heard, ready: new Promise<void>((resolve) => socket.on("session:ready", () => resolve())) };
    });
    await Promise.all(listeners.map((l) => l.ready));

    // What `npm run worker` uses: no socket.io server, only the database.
    const emitter = postgresEmitter(testDatabaseUrl());
    try {
      const small = notification("Your video is ready", "Have a look.");
      // Past PostgreSQL's 8000-byte limit for a notification: it travels through the table.
      const large = notification("A long one", "é".repeat(6000));
      emitter.of("/users").to(roomOfUser(ana.user.id)).emit("notification:new", small);
      emitter.of("/users").to(roomOfUser(ana.user.id)).emit("notification:new", large);

      await expect.poll(() => listeners[0]!.heard.length, { timeout: 10_000 }).toBe(2);
      expect(listeners[0]!.heard.map((n) => n.id).sort()).toEqual([small.id, large.id].sort());
      expect(listeners[0]!.heard.find((n) => n.id === large.id)!.body).toBe(large.body);
      const kept = await db().execute<{ count: number }>("select count(*)::int as count from realtime_attachments");
      expect(kept[0]!.count).toBeGreaterThan(0);
      // Ben's room was not named. A message to his room, sent after Ana's arrived, reaches him after
      // anything of hers would have: once it is there, nothing else came.
      const forBen = notification("For Ben", "Only this one.");
      emitter.of("/users").to(roomOfUser(ben.user.id)).emit("notification:new", forBen);
      await expect.poll(() => listeners[1]!.heard.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(listeners[1]!.heard.map((n) => n.id)).toEqual([forBen.id]);
      expect(listeners[0]!.heard).toHaveLength(2);
    } finally {
      await emitter.close();
      for (const l of listeners) l.socket.close();
    }
  });
});
