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

describe("impersonation", () => {
  test("who-am-i reports the impersonated user, and stopping returns to the admin", async () => {
    const admin = await createUser({ role: "admin" });
    const target = await createUser();
    const c = new TestClient(server.url);
    await logIn(c, admin.email);

    const started = await c.get(`/api/v2/auth/impersonate/${target.id}`);
    expect(started.status).toBe(200);
    const during = await c.get("/api/v2/auth/who-am-i");
    expect(during.body).toEqual({
      success: true,
      data: expect.objectContaining({ id: target.id, email: target.email }),
      isImpersonated: true,
    });

    const stopped = await c.get("/api/v2/auth/stop-impersonating");
    expect(stopped.status).toBe(200);
    const after = await c.get("/api/v2/auth/who-am-i");
    expect(after.body).toEqual({ success: true, data: expect.objectContaining({ id: admin.id }), isImpersonated: false });
  });

  test("only admins may impersonate", async () => {
    const target = await createUser();
    for (const role of ["user", "editor"] as const) {
      const c = new TestClient(server.url);
      await logIn(c, (await createUser({ role })).email);
      const reply = await c.get(`/api/v2/auth/impersonate/${target.id}`);
      expect(reply.status).toBe(403);
      expect((await c.get("/api/v2/auth/who-am-i")).body.isImpersonated).toBe(false);
    }
    expect((await new TestClient(server.url).get(`/api/v2/auth/impersonate/${target.id}`)).status).toBe(401);
  });

  test("a link from another site cannot start impersonation", async () => {
    const c = new TestClient(server.url);
    await logIn(c, (await createUser({ role: "admin" })).email);
    const target = await createUser();
    const reply = await c.get(`/api/v2/auth/impersonate/${target.id}`, { "sec-fetch-site": "cross-site" });
    expect(reply.status).toBe(403);
  });

  test("stopping without impersonating, or an unknown target, is a 4xx", async () => {
    const c = new TestClient(server.url);
    await logIn(c, (await createUser({ role: "admin" })).email);
    expect((await c.get("/api/v2/auth/stop-impersonating")).status).toBe(400);
    expect((await c.get("/api/v2/auth/impersonate/00000000-0000-0000-0000-000000000000")).status).toBe(404);
    expect((await c.get("/api/v2/auth/impersonate/nonsense")).status).toBe(404);
  });
});
