import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findProfileOfUser } from "~/models/user-profile.server";
import type { RunningServer } from "../../server";
import { PASSWORD, createUser, lastMailTo, linkIn, logIn, loggedInUser, uniqueEmail } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const loggedIn = (role?: "user" | "editor" | "admin") => loggedInUser(server.url, role);

describe("/api/v2/users/{id} is owner-scoped", () => {
  test("a user reads their own record", async () => {
    const { user, client } = await loggedIn();
    const reply = await client.get(`/api/v2/users/${user.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      id: user.id,
      email: user.email,
      role: "user",
      subscriptionId: null,
      hasLegacyB2bSubscription: false,
    });
    expect(JSON.stringify(reply.body)).not.toContain("passwordHash");
  });

  test("another user's record is not found, for reads and writes", async () => {
    const { client } = await loggedIn();
    const other = await createUser();
    const read = await client.get(`/api/v2/users/${other.id}`);
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain(other.email);
    expect((await client.put(`/api/v2/users/${other.id}`, { role: "admin" })).status).toBe(404);
    expect(
      (await client.put(`/api/v2/users/${other.id}/change-password`, { currentPassword: PASSWORD, newPassword: "hijacked!!" })).status,
    ).toBe(404);
    expect((await client.put(`/api/v2/users/${other.id}/change-email`, { email: uniqueEmail(), password: PASSWORD })).status).toBe(404);
  });

  test("anonymous callers get 401", async () => {
    const other = await createUser();
    expect((await new TestClient(server.url).get(`/api/v2/users/${other.id}`)).status).toBe(401);
  });

  test("a user cannot make themselves admin or a member", async () => {
    const { user, client } = await loggedIn();
    expect((await client.put(`/api/v2/users/${user.id}`, { role: "admin" })).status).toBe(403);
    expect((await client.put(`/api/v2/users/${user.id}`, { subscriptionId: "sub_free" })).status).toBe(403);
    expect((await client.get(`/api/v2/users/${user.id}`)).body.data.role).toBe("user");
  });

  test("staff can read anyone; only admins change roles and memberships", async () => {
    const target = await createUser();
    const { client: editor } = await loggedIn("editor");
    expect((await editor.get(`/api/v2/users/${target.id}`)).status).toBe(200);
    expect((await editor.put(`/api/v2/users/${target.id}`, { role: "editor" })).status).toBe(403);

    const { client: admin } = await loggedIn("admin");
    const promoted = await admin.put(`/api/v2/users/${target.id}`, { role: "editor", hasLegacyB2bSubscription: true });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ role: "editor", hasLegacyB2bSubscription: true });
  });

  test("malformed ids and unknown fields are 4xx, never 500", async () => {
    const { user, client } = await loggedIn("admin");
    expect((await client.get("/api/v2/users/not-a-uuid")).status).toBe(404);
    expect((await client.get("/api/v2/users/00000000-0000-0000-0000-000000000000")).status).toBe(404);
    const unknown = await client.put(`/api/v2/users/${user.id}`, { passwordHash: "x" });
    expect(unknown.status).toBe(400);
    const wrongType = await client.put(`/api/v2/users/${user.id}`, { role: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.fields.role).toBeDefined();
  });
});

describe("changing e-mail and password", () => {
  test("the new address takes effect only after its link is followed", async () => {
    const { user, client } = await loggedIn();
    const newEmail = uniqueEmail("moved");
    const wrongPassword = await client.put(`/api/v2/users/${user.id}/change-email`, { email: newEmail, password: "not-mine" });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error.fields.password).toBeDefined();

    expect((await client.put(`/api/v2/users/${user.id}/change-email`, { email: newEmail, password: PASSWORD })).status).toBe(200);
    expect((await client.get(`/api/v2/users/${user.id}`)).body.data.email).toBe(user.email);

    const path = linkIn((await lastMailTo(newEmail))!.text, "/auth/activate/");
    const confirmed = await client.get(`/api/v2${path}`);
    expect(confirmed.body.data.kind).toBe("email-changed");
    expect((await client.get(`/api/v2/users/${user.id}`)).body.data.email).toBe(newEmail);
    expect((await lastMailTo(user.email))?.subject).toMatch(/was changed/);
    expect((await new TestClient(server.url).post("/api/v2/auth/login", { email: newEmail, password: PASSWORD })).status).toBe(200);
  });

  test("changing the password needs the current one and logs out other sessions", async () => {
    const { user, client } = await loggedIn();
    const elsewhere = new TestClient(server.url);
    await logIn(elsewhere, user.email);

    const wrong = await client.put(`/api/v2/users/${user.id}/change-password`, { currentPassword: "nope", newPassword: "a-new-password" });
    expect(wrong.status).toBe(400);
    const short = await client.put(`/api/v2/users/${user.id}/change-password`, { currentPassword: PASSWORD, newPassword: "short" });
    expect(short.body.error.fields.newPassword).toMatch(/8 characters/);

    expect(
      (await client.put(`/api/v2/users/${user.id}/change-password`, { currentPassword: PASSWORD, newPassword: "a-new-password" })).status,
    ).toBe(200);
    expect((await client.get("/api/v2/auth/who-am-i")).body.data?.id).toBe(user.id);
    expect((await elsewhere.get("/api/v2/auth/who-am-i")).body.data).toBeNull();
  });
});

describe("/api/v2/user-profiles/{id}", () => {
  test("the owner reads and updates their profile; others cannot", async () => {
    const { user, client } = await loggedIn();
    const profile = (await findProfileOfUser(db(), user.id))!;
    const updated = await client.put(`/api/v2/user-profiles/${profile.id}`, {
      firstName: "Bo",
      timeZone: "Europe/Paris",
      marketingOptIn: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ firstName: "Bo", timeZone: "Europe/Paris", marketingOptIn: true });

    const badZone = await client.put(`/api/v2/user-profiles/${profile.id}`, { timeZone: "Mars/Olympus" });
    expect(badZone.status).toBe(400);
    expect(badZone.body.error.fields.timeZone).toBeDefined();

    const { client: stranger } = await loggedIn();
    expect((await stranger.get(`/api/v2/user-profiles/${profile.id}`)).status).toBe(404);
    expect((await stranger.put(`/api/v2/user-profiles/${profile.id}`, { firstName: "Eve" })).status).toBe(404);
    const { client: editor } = await loggedIn("editor");
    expect((await editor.get(`/api/v2/user-profiles/${profile.id}`)).body.data.firstName).toBe("Bo");
    expect((await editor.put(`/api/v2/user-profiles/${profile.id}`, { firstName: "Eve" })).status).toBe(403);
  });
});
