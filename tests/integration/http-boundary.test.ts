import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { createUser, logIn, PASSWORD } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const errorShape = { success: false, error: { code: expect.any(String), message: expect.any(String) } };

describe("malformed input answers 4xx in the API's error shape", () => {
  test.each([
    ["broken JSON", "POST", "/api/v2/auth/login", "{not json", "application/json"],
    ["a JSON array", "POST", "/api/v2/auth/register", "[1,2]", "application/json"],
    ["an unsupported body type", "POST", "/api/v2/auth/check-user", "<xml/>", "application/xml"],
    ["a wrong method", "DELETE", "/api/v2/auth/who-am-i", undefined, undefined],
    ["a GET on a POST call", "GET", "/api/v2/auth/register", undefined, undefined],
    ["an unknown API path", "GET", "/api/v2/no-such-thing", undefined, undefined],
    ["wrong field types", "POST", "/api/v2/auth/register", JSON.stringify({ email: 5, password: ["x"] }), "application/json"],
    [
      "a huge e-mail",
      "POST",
      "/api/v2/auth/forgot-password",
      JSON.stringify({ email: `${"a".repeat(500)}@example.test` }),
      "application/json",
    ],
  ])("%s", async (_name, method, path, body, type) => {
    const c = new TestClient(server.url);
    const reply = await c.json(method, path, undefined, type ? { "content-type": type } : {});
    const withBody =
      body === undefined
        ? reply
        : await c
            .raw(method, path, { body, headers: { "content-type": type! } })
            .then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(withBody.status).toBeGreaterThanOrEqual(400);
    expect(withBody.status).toBeLessThan(500);
    expect(withBody.body).toMatchObject(errorShape);
  });

  test("a form post with missing fields re-renders the page with messages and keeps what was typed", async () => {
    const page = await new TestClient(server.url).form("/auth/register", { email: "ana@", firstName: "Ana", password: "x" });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain("Enter a valid e-mail address");
    expect(html).toContain("Use at least 8 characters.");
    expect(html).toContain('value="Ana"');
    expect(html).toContain('value="ana@"');
    expect(html).not.toContain('value="x"');
  });
});

describe("security headers and cross-site requests", () => {
  test("pages carry a CSP with a per-response nonce, and no framing", async () => {
    const first = await fetch(`${server.url}/`);
    const second = await fetch(`${server.url}/`);
    const csp = first.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = csp.match(/'nonce-([^']+)'/)![1]!;
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    const html = await first.text();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-powered-by")).toBeNull();
  });

  test("a post from another origin is refused, even with a valid session", async () => {
    const user = await createUser();
    const c = new TestClient(server.url);
    await logIn(c, user.email);
    const reply = await c.json(
      "PUT",
      `/api/v2/users/${user.id}/change-password`,
      { currentPassword: PASSWORD, newPassword: "evil-password" },
      { origin: "https://evil.example" },
    );
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe("CROSS_ORIGIN");
    const sameSite = await c.json("POST", "/api/v2/auth/logout", {}, { origin: server.url });
    expect(sameSite.status).toBe(200);
  });
});

/** A request with the headers as given, Host included (fetch will not send another Host). */
function rawRequest(method: string, path: string, headers: Record<string, string>, body = "") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: server.port, method, path, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("behind a proxy that rewrites Host", () => {
  const logInForm = (headers: Record<string, string>) =>
    rawRequest(
      "POST",
      "/auth/login",
      { "content-type": "application/x-www-form-urlencoded", ...headers },
      "email=nobody%40example.test&password=wrong-password",
    );

  test.each([
    ["another Host", { host: "chorus-web-1.internal:3000" }],
    ["another X-Forwarded-Host", { host: `localhost:${0}`, "x-forwarded-host": "proxy.example" }],
  ])("a page form posted from the app's own origin with %s is answered as at the app's address", async (_name, headers) => {
    const host = headers.host.replace(":0", `:${server.port}`);
    const reply = await logInForm({ ...headers, host, origin: server.url });
    // The form's own answer: the page again, saying why (not an empty 500).
    expect(reply.status).toBe(401);
    expect(reply.body).toContain("© 2015–");
  });

  test("a page form from another origin is still refused, whatever Host says", async () => {
    const reply = await logInForm({ host: "evil.example", origin: "https://evil.example", "x-forwarded-host": "evil.example" });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error.code).toBe("CROSS_ORIGIN");
  });

  test("the path guard's answer carries the security headers every answer does", async () => {
    const reply = await rawRequest("GET", "/e/%2e%2e/admin", { host: `localhost:${server.port}` });
    expect(reply.status).toBe(400);
    expect(reply.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(reply.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
    expect(reply.body).toContain("This address is not valid");
  });
});

describe("pages", () => {
  test.each([
    "/",
    "/auth/login",
    "/auth/register",
    "/start-a-chorus",
    "/settings/billing",
    "/auth/forgot-password",
    "/video-maker/school-video",
    "/_app",
    "/support",
  ])("%s renders for a visitor", async (path) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("© 2015–");
    // Not under npm start: the developer bar is for `npm run dev` (staff-bars.test.ts).
    expect(html).not.toContain('aria-label="Developer tools"');
  });

  test("pages that need an account send visitors to log in and back", async () => {
    for (const path of ["/dashboard", "/settings/profile"]) {
      const response = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`/auth/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  test("unknown pages and bad event ids are 404 pages, not errors", async () => {
    expect((await fetch(`${server.url}/no/such/page`)).status).toBe(404);
    expect((await fetch(`${server.url}/e/not-a-uuid`)).status).toBe(404);
    expect((await fetch(`${server.url}/video-maker/unknown-video`)).status).toBe(404);
  });

  test("the admin page is only for staff", async () => {
    const c = new TestClient(server.url);
    await logIn(c, (await createUser()).email);
    expect((await c.raw("GET", "/admin")).status).toBe(404);
    const staff = new TestClient(server.url);
    await logIn(staff, (await createUser({ role: "editor" })).email);
    expect((await staff.raw("GET", "/admin")).status).toBe(200);
  });

  test("the support form stores a message for staff, signed Anonymous with the user's e-mail and role", async () => {
    const user = await createUser();
    const c = new TestClient(server.url);
    await logIn(c, user.email);
    const sent = await c.form("/support?kind=feedback", { kind: "feedback", message: "Please add confetti." }, { origin: server.url });
    expect(sent.status).toBe(200);
    const admin = new TestClient(server.url);
    await logIn(admin, (await createUser({ role: "admin" })).email);
    const page = await (await admin.raw("GET", "/admin")).text();
    expect(page).toContain("Please add confetti.");
    expect(page).toContain(user.email);
    expect(page).toContain("Anonymous");
  });
});

describe("a page opened at another address of the server", () => {
  test("says where the app lives and links the same page there; at that address it says nothing", async () => {
    const other = server.url.replace("localhost", "127.0.0.1");
    const away = await fetch(`${other}/auth/login?redirectTo=%2Fdashboard`).then((r) => r.text());
    expect(away).toContain(`lives at <strong>${server.url}</strong>`);
    expect(away).toContain(`href="${server.url}/auth/login?redirectTo=%2Fdashboard"`);
    const home = await fetch(`${server.url}/auth/login`).then((r) => r.text());
    expect(home).not.toContain('class="other-address-bar"');
  });
});

describe("occasion pictures", () => {
  test("each occasion's picture is an SVG drawing cached for a day; an unknown occasion is a 404", async () => {
    for (const type of ["birthday", "memorial", "wedding-guestbook"]) {
      const reply = await fetch(`${server.url}/icons/occasions/${type}`);
      expect(reply.status, type).toBe(200);
      expect(reply.headers.get("content-type")).toBe("image/svg+xml");
      expect(reply.headers.get("cache-control")).toContain("max-age=86400");
      const svg = await reply.text();
      expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).toContain("<path");
    }
    expect((await fetch(`${server.url}/icons/occasions/not-an-occasion`)).status).toBe(404);
  });

  test("every occasion's picture is a symbol of one SVG file, cached for a day, drawn at the size of its view box", async () => {
    const reply = await fetch(`${server.url}/icons/occasions.svg`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("image/svg+xml");
    expect(reply.headers.get("cache-control")).toContain("max-age=86400");
    const sprite = await reply.text();
    expect(sprite).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg">/);
    const ids = [...sprite.matchAll(/<symbol id="([^"]+)" viewBox="0 0 24 24">/g)].map((match) => match[1]);
    expect(ids).toEqual(expect.arrayContaining(["birthday", "memorial", "wedding-guestbook"]));
    expect(new Set(ids).size).toBe(ids.length);
    // The same drawing as the picture served alone: its paths, in the same ink and stroke.
    const birthday = sprite.slice(
      sprite.indexOf('<symbol id="birthday"'),
      sprite.indexOf("</symbol>", sprite.indexOf('<symbol id="birthday"')),
    );
    const alone = await fetch(`${server.url}/icons/occasions/birthday`).then((r) => r.text());
    expect(birthday.match(/<path d="[^"]+"/g)).toEqual(alone.match(/<path d="[^"]+"/g));
    expect(birthday).toContain('stroke="#1f5fd6" stroke-width="1.6"');
  });
});
