import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebSocket as NodeWebSocket } from "ws";
import { roomOfEvent, type PotUpdate } from "~/realtime/events";
import { openPlainSocket, type PlainSocket } from "~/realtime/plain-socket";
import { realtime } from "~/realtime/server.server";
import type { RunningServer } from "../../server";
import { freePort } from "../support/global-database";
import { startTestServer } from "../support/test-server";

// The public pages' WebSocket (plain-socket.ts) against the real socket.io server: it must speak
// the protocol well enough to be heard, hear its room, and come back after the server drops it.

let server: RunningServer;
const browserGlobals = globalThis as unknown as { location?: URL; WebSocket?: unknown };
beforeAll(async () => {
  server = await startTestServer();
  // What the browser gives the module: the page's address and its WebSocket.
  browserGlobals.WebSocket = NodeWebSocket;
  browserGlobals.location = new URL(server.url);
});
afterAll(async () => {
  delete browserGlobals.WebSocket;
  delete browserGlobals.location;
  await server.close();
});

const EVENT = "0b6f4f5e-4c1e-4f53-9a43-2f1a1f7f2b10";
const pot = (trees: number): PotUpdate => ({ eventUuid: EVENT, gift: null, trees });

/** A socket on /public that joins EVENT's room each time it connects, and what it heard. */
function listen() {
  const heard: PotUpdate[] = [];
  let connects = 0;
  let unavailable = false;
  const socket: PlainSocket = openPlainSocket("/public", () => (unavailable = true));
  socket.on("connect", () => {
    connects += 1;
    socket.emit("event:join", EVENT);
  });
  socket.on("pot:updated", (update: PotUpdate) => heard.push(update));
  return { socket, heard, connects: () => connects, unavailable: () => unavailable };
}

/** Sends `update` to EVENT's room until `heard` has it: the join travels after "connect" is heard. */
async function sendUntilHeard(heard: PotUpdate[], update: PotUpdate) {
  await expect
    .poll(
      () => {
        realtime()!.of("/public").to(roomOfEvent(EVENT)).emit("pot:updated", update);
        return heard.some((h) => h.trees === update.trees);
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(true);
}

describe("the public pages' plain WebSocket", () => {
  test("is heard by the namespace and hears the events of the room it joined", async () => {
    const { socket, heard, connects } = listen();
    try {
      await expect.poll(connects, { timeout: 10_000 }).toBe(1);
      await sendUntilHeard(heard, pot(3));
      expect(heard.every((h) => h.eventUuid === EVENT)).toBe(true);
    } finally {
      socket.close();
    }
  });

  test("connects again when the server drops it, joins again and hears on", async () => {
    const { socket, heard, connects } = listen();
    try {
      await expect.poll(connects, { timeout: 10_000 }).toBe(1);
      // As when a web process restarts or the network drops: the server closes the connection.
      realtime()!.of("/public").disconnectSockets(true);
      // Again after about a second (spec §9's reconnection delay).
      await expect.poll(connects, { timeout: 10_000 }).toBe(2);
      await sendUntilHeard(heard, pot(5));
    } finally {
      socket.close();
    }
  });

  test("says so when no WebSocket can open, for the socket.io client to take over", async () => {
    const page = browserGlobals.location;
    browserGlobals.location = new URL(`http://localhost:${await freePort()}`);
    try {
      const { socket, connects, unavailable } = listen();
      await expect.poll(unavailable, { timeout: 10_000 }).toBe(true);
      expect(connects()).toBe(0);
      socket.close();
    } finally {
      browserGlobals.location = page;
    }
  });
});
