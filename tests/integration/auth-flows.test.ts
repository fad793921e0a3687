import { sessions, startDrafts } from "drizzle/schema";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { jobHandlers } from "~/jobs/handlers.server";
import { db } from "~/lib/db.server";
import { insertSession } from "~/models/auth-session.server";
import { insertDraft } from "~/models/start-draft.server";
import type { RunningServer } from "../../server";
import { expireTokensOf, lastMailTo, linkIn, PASSWORD, uniqueEmail } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const client = () => new TestClient(server.url);

async function register(c: TestClient, email = uniqueEmail()) {
  const reply = await c.post("/api/v2/auth/register", { email, password: PASSWORD, firstName: "Ana" });
  expect(reply.status).toBe(201);
  return email;
}

/** Follows the confirmation link of the newest mail, through the API. */
async function confirm(c: TestClient, email: string) {
  const path = linkIn((await lastMailTo(email))!.text, "/auth/activate/");
  expect((await c.get(`/api/v2${path}`)).status).toBe(200);
}

describe("registration and e-mail verification", () => {
  test("a new account must confirm its address before logging in", async () => {
    const c = client();
    const email = await register(c);

    const early = await c.post("/api/v2/auth/login", { email, password: PASSWORD });
    expect(early.status).toBe(403);
    expect(early.body.error.code).toBe("EMAIL_NOT_VERIFIED");

    const mail = await lastMailTo(email);
    expect(mail?.subject).toMatch(/confirm your e-mail/i);
    expect(mail?.html).toContain("/auth/activate/");
    const token = linkIn(mail!.text, "/auth/activate/").split("/").pop()!;

    const activated = await c.get(`/api/v2/auth/activate/${token}`);
    expect(activated.status).toBe(200);
    expect(activated.body.data).toMatchObject({ kind: "verified", user: { email } });

    const login = await c.post("/api/v2/auth/login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const me = await c.get("/api/v2/auth/who-am-i");
    expect(me.body).toEqual({ success: true, data: expect.objectContaining({ email, role: "user" }), isImpersonated: false });
  });

  test("a verification link works once", async () => {
    const c = client();
    const email = await register(c);
    const token = linkIn((await lastMailTo(email))!.text, "/auth/activate/")
      .split("/")
      .pop()!;
    expect((await c.get(`/api/v2/auth/activate/${token}`)).status).toBe(200);
    const again = await c.get(`/api/v2/auth/activate/${token}`);
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe("TOKEN_USED");
  });

  test("an expired verification link is refused and a new one can be sent", async () => {
    const c = client();
    const email = await register(c);
    const token = linkIn((await lastMailTo(email))!.text, "/auth/activate/")
      .split("/")
      .pop()!;
    await expireTokensOf(email);
    const expired = await c.get(`/api/v2/auth/activate/${token}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error.code).toBe("TOKEN_EXPIRED");

    const resent = await c.post("/api/v2/auth/resend-verification", { email });
    expect(resent.status).toBe(200);
    const fresh = linkIn((await lastMailTo(email))!.text, "/auth/activate/")
      .split("/")
      .pop()!;
    expect(fresh).not.toBe(token);
    expect((await c.get(`/api/v2/auth/activate/${fresh}`)).status).toBe(200);
  });

  test("an unknown token is a 404 with a clear message", async () => {
    const reply = await client().get("/api/v2/auth/activate/not-a-real-token");
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ success: false, error: { code: "TOKEN_UNKNOWN", message: expect.stringMatching(/not valid/) } });
  });

  test("registering an address twice is refused on the e-mail field", async () => {
    const c = client();
    const email = await register(c);
    const again = await c.post("/api/v2/auth/register", { email: email.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body.error.fields.email).toMatch(/already exists/);
  });

  test("bad sign-up input gets one message per field", async () => {
    const reply = await client().post("/api/v2/auth/register", { email: "not-an-email", password: "short" });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("VALIDATION_FAILED");
    expect(Object.keys(reply.body.error.fields).sort()).toEqual(["email", "password"]);
  });

  test("POST /v2/mail/verify sends the logged-in user a new link", async () => {
    const c = client();
    const email = await register(c);
    // Unverified users cannot log in, so confirm, then ask again: it says it is done already.
    await confirm(c, email);
    await c.post("/api/v2/auth/login", { email, password: PASSWORD });
    const reply = await c.post("/api/v2/mail/verify");
    expect(reply.status).toBe(200);
    expect(reply.body.data.alreadyVerified).toBe(true);
    expect((await client().post("/api/v2/mail/verify")).status).toBe(401);
  });
});

describe("log-in and log-out", () => {
  test("a wrong password is refused without telling which part was wrong", async () => {
    const c = client();
    const email = await register(c);
    const wrong = await c.post("/api/v2/auth/login", { email, password: "not the password" });
    const unknown = await c.post("/api/v2/auth/login", { email: uniqueEmail("nobody"), password: "whatever1" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
  });

  test("log-out ends the session on the server, not just in the browser", async () => {
    const c = client();
    const email = await register(c);
    await confirm(c, email);
    await c.post("/api/v2/auth/login", { email, password: PASSWORD });
    const stolenCookie = c.cookieHeader();

    const out = await c.post("/api/v2/auth/logout");
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join(";")).toContain("__toast=");

    const replay = await fetch(`${server.url}/api/v2/auth/who-am-i`, { headers: { cookie: stolenCookie } });
    expect((await replay.json()).data).toBeNull();
  });

  test("the session cookie is httpOnly and SameSite=Lax", async () => {
    const c = client();
    const email = await register(c);
    await confirm(c, email);
    const reply = await c.raw("POST", "/api/v2/auth/login", {
      body: JSON.stringify({ email, password: PASSWORD }),
      headers: { "content-type": "application/json" },
    });
    const cookie = reply.headers.getSetCookie().find((line) => line.startsWith("__session="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});

describe("where the log-in page sends you", () => {
  test.each([
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%0d/evil.example",
    "/%E3%80%82/evil.example",
    "//evil.example",
    "/%5Cevil.example",
    "https://evil.example",
  ])("a logged-in user opening ?redirectTo=%s stays on this site", async (target) => {
    const c = client();
    const email = await register(c);
    await confirm(c, email);
    await c.post("/api/v2/auth/login", { email, password: PASSWORD });
    const response = await c.raw("GET", `/auth/login?redirectTo=${target}`);
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(new URL(location, server.url).origin).toBe(new URL(server.url).origin);
    expect(location).not.toMatch(/[\s\\]/);
  });

  test("logging in through the form goes back to the page that asked", async () => {
    const c = client();
    const email = await register(c);
    await confirm(c, email);
    const response = await c.form("/auth/login", { email, password: PASSWORD, redirectTo: "/settings/profile" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/settings\/profile/);
  });
});

describe("forgotten password", () => {
  async function verifiedAccount(c: TestClient) {
    const email = await register(c);
    await confirm(c, email);
    return email;
  }

  test("a reset link sets a new password once, and old sessions end", async () => {
    const c = client();
    const email = await verifiedAccount(c);
    const other = client();
    await other.post("/api/v2/auth/login", { email, password: PASSWORD });

    expect((await c.post("/api/v2/auth/forgot-password", { email })).status).toBe(200);
    const token = linkIn((await lastMailTo(email))!.text, "/auth/reset-password/")
      .split("/")
      .pop()!;

    const reset = await c.post(`/api/v2/auth/reset-password/${token}`, { password: "a brand new secret" });
    expect(reset.status).toBe(200);
    expect((await other.get("/api/v2/auth/who-am-i")).body.data).toBeNull();
    expect((await c.post("/api/v2/auth/login", { email, password: PASSWORD })).status).toBe(401);
    expect((await c.post("/api/v2/auth/login", { email, password: "a brand new secret" })).status).toBe(200);

    const reused = await c.post(`/api/v2/auth/reset-password/${token}`, { password: "yet another secret" });
    expect(reused.status).toBe(410);
    expect(reused.body.error.code).toBe("TOKEN_USED");
  });

  test("an expired reset link is refused", async () => {
    const c = client();
    const email = await verifiedAccount(c);
    await c.post("/api/v2/auth/forgot-password", { email });
    const token = linkIn((await lastMailTo(email))!.text, "/auth/reset-password/")
      .split("/")
      .pop()!;
    await expireTokensOf(email);
    const reply = await c.post(`/api/v2/auth/reset-password/${token}`, { password: "a brand new secret" });
    expect(reply.status).toBe(410);
    expect(reply.body.error.code).toBe("TOKEN_EXPIRED");
    expect((await c.post("/api/v2/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  test("asking for an unknown address answers the same and sends nothing", async () => {
    const email = uniqueEmail("nobody");
    const reply = await client().post("/api/v2/auth/forgot-password", { email });
    expect(reply.status).toBe(200);
    expect(await lastMailTo(email)).toBeNull();
  });

  test("check-user tells whether an address has a confirmed account", async () => {
    const c = client();
    const email = await verifiedAccount(c);
    expect((await c.post("/api/v2/auth/check-user", { email })).body.data).toEqual({ exists: true, verified: true });
    expect((await c.post("/api/v2/auth/check-user", { email: uniqueEmail() })).body.data).toEqual({ exists: false, verified: false });
  });
});

describe("the nightly sweep of expired sessions", () => {
  test("removes sessions and start drafts past their expiry and keeps live ones", async () => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    const inAnHour = new Date(Date.now() + 3_600_000);
    const record = { userId: null, impersonatorId: null, data: {} };
    const expiredSession = await insertSession(db(), record, hourAgo);
    const liveSession = await insertSession(db(), record, inAnHour);
    const expiredDraft = await insertDraft(db(), { step: "occasion" }, hourAgo);
    const liveDraft = await insertDraft(db(), { step: "occasion" }, inAnHour);

    await jobHandlers["expired-sessions-sweep"]({ id: "test", data: {}, finalAttempt: true, startedOn: new Date() });

    const sessionIds = (
      await db()
        .select({ id: sessions.id })
        .from(sessions)
        .where(inArray(sessions.id, [expiredSession, liveSession]))
    ).map((r) => r.id);
    const draftIds = (
      await db()
        .select({ id: startDrafts.id })
        .from(startDrafts)
        .where(inArray(startDrafts.id, [expiredDraft, liveDraft]))
    ).map((r) => r.id);
    expect(sessionIds).toEqual([liveSession]);
    expect(draftIds).toEqual([liveDraft]);
  });
});
