import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { freePort } from "../support/global-database";
import { makeTempDir } from "../support/media-fixtures";
import { testDatabaseUrl } from "../support/test-database";
import { startTestServer } from "../support/test-server";

// Addresses no browser sends — broken percent escapes, dot segments, encoded NULs — are refused
// in the shape their caller expects, and no answer carries a stack or a path of this machine.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  files = await makeTempDir("hostile-paths");
  server = await startTestServer({ DATA_DIR: files.path("data") });
});
afterAll(async () => {
  await server?.close();
  await files?.remove();
});

/** Raw request: fetch would normalise the dot segments away before sending. */
async function get(path: string, base = server.url) {
  const { port } = new URL(base);
  const http = await import("node:http");
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path, method: "GET" }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, type: String(response.headers["content-type"] ?? ""), body }));
    });
    request.on("error", reject);
    request.end();
  });
}

const leaks = (body: string) => /\n\s+at |URIError|node_modules|\/work\/|\/tmp\/|insert into|select .* from/i.test(body);

describe("a broken percent escape", () => {
  test.each([
    "/api/event/%E0%A4%A",
    "/api/v2/events/%E0%A4%A",
    "/api/v2/auth/activate/%E0%A4%A",
    "/api/v2/media/%E0%A4%A/restore",
    "/uploads/tus/%E0%A4%A",
  ])("on %s answers 400 in the API's error shape", async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: { code: "BAD_PATH", message: expect.any(String) } });
  });

  test.each(["/e/%E0%A4%A", "/media/%E0%A4%A/original", "/auth/reset-password/%E0%A4%A", "/e/%E0%A4%A/contribute"])(
    "on the page %s answers a plain 400 page",
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(400);
      expect(answer.type).toMatch(/text\/html/);
      expect(answer.body).toContain("This address is not valid");
      expect(leaks(answer.body)).toBe(false);
    },
  );
});

test.each([
  "/api/event/../x",
  "/api/uploads/../../x",
  "/api/uploads/..%2F..%2Fx",
  "/api/event/%2e%2e/x",
  "/api/v2/events/%00",
  "/api/%0A",
  "/api/v2/events/a%0Db",
  "/api/x%E2%80%A8",
])("the hostile id %s answers JSON, not a page", async (path) => {
  const answer = await get(path);
  expect(answer.status).toBe(400);
  expect(answer.type).toMatch(/application\/json/);
  expect(JSON.parse(answer.body)).toMatchObject({ success: false });
});

test("an ordinary address with dots in its names still works", async () => {
  const answer = await get("/.well-known/nothing-here");
  expect(answer.status).toBe(404);
  expect(leaks(answer.body)).toBe(false);
});

test("a data request for a route that does not match answers without a stack", async () => {
  const answer = await get("/?_data=routes%2Fnope");
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(leaks(answer.body)).toBe(false);
});

describe("npm start", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGTERM");
  });

  test("runs the server in production mode", async () => {
    const port = await freePort();
    let output = "";
    // As a person runs it: no NODE_ENV of its own (spawn leaves out undefined values).
    const environment: Record<string, string | undefined> = { ...process.env, NODE_ENV: undefined };
    const started = spawn(process.execPath, ["scripts/start.js"], {
      env: {
        ...environment,
        PORT: String(port),
        APP_URL: "",
        DATABASE_URL: testDatabaseUrl(),
        DATA_DIR: files.path("start"),
        JOB_QUEUE_SCHEMA: "pgboss_start_test",
        RUN_WORKER: "false",
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    started.stdout!.on("data", (chunk) => (output += chunk));
    started.stderr!.on("data", (chunk) => (output += chunk));
    // Production mode says so at start (no SMTP here), then answers data errors without stacks.
    const since = Date.now();
    while (!output.includes("readable at /dev/outbox from this machine only")) {
      if (started.exitCode !== null || Date.now() - since > 60_000)
        throw new Error(`npm start did not come up in production mode:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answer = await get("/?_data=routes%2Fnope", `http://localhost:${port}`);
    expect(answer.body).toBe(JSON.stringify({ message: "Unexpected Server Error" }));

    // Served over plain http, production mode must not send the page's own assets to https.
    const home = await fetch(`http://localhost:${port}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
    expect(home.headers.get("strict-transport-security")).toBeNull();
    const script = (await home.text()).match(/(?:src|href)="(\/build\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`http://localhost:${port}${script}`)).status).toBe(200);
  }, 90_000);
});
