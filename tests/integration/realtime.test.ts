import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { createUser, logIn } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Connects to a namespace with a cookie; resolves with the greeting or the refusal. */
function tryConnect(namespace: string, cookie = "") {
  const socket: Socket = connect(`${server.url}${namespace}`, {
    transports: ["websocket"],
    extraHeaders: { cookie },
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
