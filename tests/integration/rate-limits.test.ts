import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { createUser, PASSWORD, uniqueEmail } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

// Small limits so the test reaches them quickly; the counters live in PostgreSQL.
let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({
    LOGIN_LIMIT_PER_IP: "6",
    LOGIN_LIMIT_PER_ACCOUNT: "3",
    LOGIN_SLOWDOWN_MS: "400",
    LOGIN_SLOWDOWN_MAX_MS: "1200",
    RESET_LIMIT_PER_IP: "4",
    RESET_LIMIT_PER_ACCOUNT: "2",
  });
});
afterAll(() => server.close());

describe("log-in rate limits", () => {
  test("an address that guesses an account's password too often must wait, even with the right one", async () => {
    const user = await createUser();
    const guesser = new TestClient(server.url);
    for (let i = 0; i < 3; i++) {
      const reply = await guesser.post("/api/v2/auth/login", { email: user.email, password: "wrong-password" });
      expect(reply.status).toBe(401);
    }
    const locked = await guesser.post("/api/v2/auth/login", { email: user.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("RATE_LIMITED");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("wrong passwords from many addresses slow the account down but never lock its owner out", async () => {
    const user = await createUser();
    const timed = async (client: TestClient, password: string) => {
      const started = Date.now();
      const reply = await client.post("/api/v2/auth/login", { email: user.email, password });
      return { status: reply.status, ms: Date.now() - started };
    };
    for (let i = 0; i < 10; i++) expect((await timed(new TestClient(server.url), "wrong-password")).status).toBe(401);

    // Ten failures against a limit of 3: each attempt now waits the longest slow-down (1.2 s).
    const slowed = await timed(new TestClient(server.url), "still-wrong");
    expect(slowed.status).toBe(401);
    // The wait is a floor: however busy the machine, the answer cannot come sooner.
    expect(slowed.ms).toBeGreaterThanOrEqual(1200);

    const owner = await timed(new TestClient(server.url), PASSWORD);
    expect(owner.status).toBe(200);
    // Once the owner is in, the account's count starts again.
    expect((await timed(new TestClient(server.url), "wrong-password")).ms).toBeLessThan(1200);
  });

  test("one address is limited across accounts", async () => {
    const c = new TestClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await c.post("/api/v2/auth/login", { email: uniqueEmail(), password: "wrong-password" })).status);
    }
    expect(statuses.slice(0, 6).every((s) => s === 401)).toBe(true);
    expect(statuses[6]).toBe(429);
    // Another address is not affected.
    const user = await createUser();
    expect((await new TestClient(server.url).post("/api/v2/auth/login", { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  test("a successful log-in clears the account's failure count", async () => {
    const user = await createUser();
    const c = new TestClient(server.url);
    await c.post("/api/v2/auth/login", { email: user.email, password: "wrong-password" });
    await c.post("/api/v2/auth/login", { email: user.email, password: "wrong-password" });
    expect((await c.post("/api/v2/auth/login", { email: user.email, password: PASSWORD })).status).toBe(200);
    const again = new TestClient(server.url);
    await again.post("/api/v2/auth/login", { email: user.email, password: "wrong-password" });
    await again.post("/api/v2/auth/login", { email: user.email, password: "wrong-password" });
    expect((await again.post("/api/v2/auth/login", { email: user.email, password: PASSWORD })).status).toBe(200);
  });

  test("the log-in form shows the limit as a message, not an error page", async () => {
    const user = await createUser();
    const client = new TestClient(server.url);
    for (let i = 0; i < 3; i++) await client.post("/api/v2/auth/login", { email: user.email, password: "nope-nope" });
    const page = await client.form("/auth/login", { email: user.email, password: PASSWORD });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain("Too many attempts");
  });
});

describe("password reset rate limits", () => {
  test("reset requests are limited per account", async () => {
    const user = await createUser();
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await new TestClient(server.url).post("/api/v2/auth/forgot-password", { email: user.email })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  test("reset requests are limited per address", async () => {
    const c = new TestClient(server.url);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await c.post("/api/v2/auth/forgot-password", { email: uniqueEmail() })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  test("a client cannot pick its own address: a forged address header on every request still meets the limit", async () => {
    // The address is the one the server sees (here the trusted proxy's X-Forwarded-For, the same
    // each time); the header the server uses inside is replaced, whatever the client sent in it.
    const c = new TestClient(server.url);
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const forged = { "x-chorus-client-ip": `192.0.2.${i + 1}` };
      statuses.push((await c.json("POST", "/api/v2/auth/forgot-password", { email: uniqueEmail() }, forged)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
