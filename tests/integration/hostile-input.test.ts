// Generated hostile input against every /api route, every page form and the tus endpoint, as a
// logged-out visitor, a logged-in organiser and a contributor holding an upload token. Whatever is
// sent, the answer is never a 5xx, never an HTML page from /api, and never shows a stack, SQL or a
// path of the machine; nothing is logged as an error. A failure prints fast-check's seed and path:
// HOSTILE_SEED=<seed> replays it.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { recipients, themes } from "drizzle/schema";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "~/lib/db.server";
import { hashToken } from "~/lib/tokens.server";
import { insertMedia } from "~/models/media.server";
import type { RunningServer } from "../../server";
import { loggedInUser, logIn } from "../support/accounts";
import { createTestEvent } from "../support/events";
import {
  apiRoutes,
  encodeBody,
  escapeSegment,
  hostileBody,
  hostileString,
  leakIn,
  pageActions,
  RAW_HOSTILE_SEGMENTS,
  vocabulary,
  type HostileBody,
  type Method,
  type RouteCall,
} from "../support/hostile-requests";
import { type TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";
import { encodeMetadata } from "../support/tus-client";

const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : undefined;
/**
 * Runs per property, each also stopped at its time limit (a loaded machine runs fewer): on two
 * shared cores about 400 API requests, 150 page posts and 80 uploads, the file under a minute.
 */
const RUNS = { api: 500, pages: 200, tus: 80 };
const TIME_LIMIT_MS = { api: 15_000, pages: 9_000, tus: 5_000 };

let server: RunningServer;
let organiser: TestClient;
let organiserEmail: string;
let contributorToken: string;
/** Real ids by parameter, so requests also reach the code behind the access checks. */
const real: Record<string, string[]> = {};
const { fields, intents } = vocabulary();
/** Where the app lives and keeps its files: an answer naming them says too much. */
const machinePaths = [path.resolve("."), path.resolve("data"), fs.realpathSync(os.tmpdir()) + "/", "/node_modules/", "file:///"];

beforeAll(async () => {
  server = await startTestServer();
  const { user, client } = await loggedInUser(server.url);
  organiser = client;
  organiserEmail = user.email;
  const event = await createTestEvent(user);
  const invitee = await organiser.post("/api/v2/rsvps", { eventId: event.id, name: "Bea", email: "bea@example.test" });
  const [recipient] = await db().select().from(recipients).where(eq(recipients.eventId, event.id));
  const [theme] = await db().select().from(themes).limit(1);
  contributorToken = crypto.randomBytes(24).toString("base64url");
  const media = await insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: `events/${event.id}/uploads/${crypto.randomUUID()}`,
    originalName: "clip.mp4",
    mimeType: "video/mp4",
    sizeBytes: 1000,
    contributorName: "Cy",
    caption: "",
    uploadTokenHash: hashToken(contributorToken),
    uploadId: `test-${crypto.randomUUID()}`,
  });
  Object.assign(real, {
    event: [event.id, event.uuid],
    media: [media.id, media.mediaUuid],
    user: [user.id],
    rsvp: [invitee.body.data.id],
    recipient: [recipient!.id],
    theme: [theme!.id],
  });
});
afterAll(() => server.close());

type Actor = "visitor" | "organiser" | "contributor";

/** Real ids that fit a route's parameter, by the route's wording. */
function realIdsFor(route: RouteCall, param: string) {
  const words = route.file;
  if (param === "uuid") return real.event!;
  if (param === "rsvpId") return real.rsvp!;
  if (/media/.test(words)) return real.media!;
  if (/event/.test(words)) return real.event!;
  if (/users|user-profiles|impersonate/.test(words)) return real.user!;
  if (/rsvps/.test(words)) return real.rsvp!;
  if (/recipients/.test(words)) return real.recipient!;
  if (/themes/.test(words)) return real.theme!;
  return [crypto.randomUUID()];
}

/** A path segment for a parameter: a real id, a raw hostile segment, or any string escaped. */
const segmentFor = (route: RouteCall, param: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...realIdsFor(route, param)) },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_HOSTILE_SEGMENTS) },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length < 5000).map(escapeSegment) },
    { weight: 1, arbitrary: fc.uuid().map(String) },
  );

const pathFor = (route: RouteCall, prefix: string): fc.Arbitrary<string> =>
  fc
    .tuple(...route.segments.map((s) => (s.param ? segmentFor(route, s.text) : fc.constant(s.text))))
    .map((parts) => `${prefix}/${parts.join("/")}`.replace(/\/$/, "") || "/");

const queryFor = fc.option(
  fc.oneof(
    fc.constantFrom("?privateKey=%00", "?v=%E0%A4%A", "?step=%", "?stock=%00&stockPage=-1", "?redirectTo=%2F%2Fevil.example", "?a=%zz&b"),
    fc
      .dictionary(fc.constantFrom("privateKey", "viewKey", "v", "step", "page", "search", "stock", "invite", "token"), hostileString, {
        maxKeys: 2,
      })
      .map(
        (q) =>
          `?${Object.entries(q)
            .map(([k, v]) => `${k}=${escapeSegment(v)}`)
            .join("&")}`,
      ),
  ),
  { nil: "" },
);

interface Sent {
  method: string;
  path: string;
  actor: Actor;
  body?: HostileBody;
  /** Bytes to send as they are (a tus chunk), instead of a body. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

/** A raw request: the path goes out exactly as written (no URL parsing tidies "../" or bad escapes). */
function send(method: string, rawPath: string, headers: Record<string, string>, bytes?: Buffer) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    let answered = false;
    // A fresh connection each time (agent: false): a reused one the server just closed would reset.
    // Asked to be kept alive, as a browser's is: a server that answers before reading a large body
    // (a 401, a 413) then reads the rest and drops it. On a connection asked to close, it closed
    // while the body was still coming, and the reset could reach us before its answer did, which
    // the kernel then discards. Closed here once the answer is read.
    const request = http.request(
      {
        host: "localhost",
        port: server.port,
        agent: false,
        method,
        path: rawPath,
        headers: { connection: "keep-alive", ...headers, "content-length": String(bytes?.length ?? 0) },
      },
      (response) => {
        answered = true;
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("end", () => {
          request.destroy();
          resolve({
            status: response.statusCode!,
            type: String(response.headers["content-type"] ?? ""),
            body: Buffer.concat(parts).toString("utf8"),
          });
        });
        response.on("error", reject);
      },
    );
    // A server may answer (a 401, a 413) before reading a large body, then close the connection
    // while it is still being sent: the answer counts, the reset does not.
    request.on("error", (error) => answered || reject(error));
    request.end(bytes);
  });
}

const randomIp = () => `10.${crypto.randomInt(255)}.${crypto.randomInt(255)}.${crypto.randomInt(1, 255)}`;

/** Sends one generated request and says what is wrong with its answer, or null. */
async function check(sent: Sent): Promise<string | null> {
  const { bytes, type } = sent.body ? await encodeBody(sent.body) : { bytes: sent.bytes, type: undefined };
  const headers: Record<string, string> = {
    // Same-origin, as a browser's form or fetch; a fresh address each time so rate limits do not hide the handler.
    origin: server.url,
    "x-forwarded-for": randomIp(),
    ...(type ? { "content-type": type } : {}),
    ...(sent.actor === "organiser" ? { cookie: organiser.cookieHeader() } : {}),
    ...(sent.actor === "contributor" ? { "x-upload-token": contributorToken } : {}),
    ...sent.headers,
  };
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const answer = await send(sent.method, sent.path, headers, bytes);
    // Jobs the request queued may fail a moment later: give them that moment to say so.
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Where the request lands once "." and ".." are resolved, as the server (and any browser) reads it.
    const landed = new URL(sent.path, server.url).pathname;
    const isApi = /^\/(api|uploads)(\/|$)/.test(landed);
    const leak = leakIn(answer.status, answer.type, answer.body, isApi, machinePaths);
    if (leak) return `${leak}: ${answer.body.slice(0, 600)}`;
    if (logged.mock.calls.length)
      return `the server logged an error: ${logged.mock.calls
        .map((c) => c.map(String).join(" "))
        .join("\n")
        .slice(0, 600)}`;
    return null;
  } finally {
    logged.mockRestore();
    // Log-out and account changes end the organiser's session: log back in for the next request.
    if (sent.actor === "organiser" && /logout|impersonat|change-email|change-password|settings/.test(sent.path)) {
      await logIn(organiser, organiserEmail).catch(() => {});
    }
  }
}

const describeSent = (sent: Sent) =>
  JSON.stringify({ ...sent, body: sent.body && { ...sent.body, rawJson: sent.body.rawJson?.slice(0, 200) } }, (_k, v) =>
    typeof v === "string" && v.length > 200 ? `${v.slice(0, 200)}…(${v.length})` : v,
  );

async function holds(sent: Sent) {
  const problem = await check(sent);
  if (problem) throw new Error(`${problem}\nrequest: ${describeSent(sent)}`);
}

const actor = fc.constantFrom<Actor>("visitor", "organiser", "contributor");
const options = (runs: number, limit: number) => ({ numRuns: runs, interruptAfterTimeLimit: limit, seed: SEED, verbose: 1 as const });

describe("hostile input never breaks the server or leaks its internals", () => {
  const api = apiRoutes();
  const pages = pageActions();

  test("the route catalogue is read from app/routes", () => {
    expect(api.length).toBeGreaterThan(50);
    expect(api.find((r) => r.file === "api.v2.media.$id.ts")?.methods).toEqual(["GET", "PUT", "DELETE"]);
    expect(pages.map((p) => p.file)).toEqual(
      expect.arrayContaining(["e.$uuid/route.tsx", "e.$uuid_.contribute.tsx", "start-a-chorus.tsx", "auth.register.tsx"]),
    );
    expect(fields).toEqual(expect.arrayContaining(["caption", "contributorName", "thankYouMessage", "title", "firstName", "reason"]));
  });

  test("every /api route and method, for every caller, with NUL in every field the app knows", async () => {
    const poisoned = Object.fromEntries(fields.map((f) => [f, `x\u0000${f}`]));
    for (const route of api) {
      for (const method of route.methods) {
        const url = `/${route.segments.map((s) => (s.param ? realIdsFor(route, s.text)[0] : s.text)).join("/")}`;
        for (const who of ["visitor", "organiser", "contributor"] as Actor[]) {
          await holds({ method, path: url, actor: who, body: method === "GET" ? undefined : { kind: "json", fields: poisoned } });
        }
      }
    }
  }, 120_000);

  test("generated requests to the /api routes", async () => {
    const call = fc.constantFrom(
      ...api.flatMap((route) => route.methods.map((method) => ({ route, method: method as Method | "PATCH" }))),
      { route: api[0]!, method: "PATCH" as const },
    );
    const request = call.chain(({ route, method }) =>
      fc.record({
        method: fc.constant(method),
        path: fc.tuple(pathFor(route, ""), queryFor).map(([p, q]) => p + q),
        actor,
        body: method === "GET" ? fc.constant(undefined) : hostileBody(fields, intents),
      }),
    );
    await fc.assert(fc.asyncProperty(request, holds), options(RUNS.api, TIME_LIMIT_MS.api));
  }, 120_000);

  test("generated posts to every page form", async () => {
    const request = fc.constantFrom(...pages).chain((route) =>
      fc.record({
        method: fc.constant("POST"),
        path: fc.tuple(pathFor(route, ""), queryFor).map(([p, q]) => p + q),
        actor,
        body: hostileBody(fields, intents),
      }),
    );
    await fc.assert(fc.asyncProperty(request, holds), options(RUNS.pages, TIME_LIMIT_MS.pages));
  }, 120_000);

  test("generated tus uploads: hostile metadata and ids", async () => {
    const metadata = fc.dictionary(
      fc.constantFrom("eventUuid", "filename", "filetype", "contributorName", "caption", "purpose", "privateKey", "invite", "uploadToken"),
      fc.oneof(
        hostileString.filter((s) => s.length < 5000),
        fc.constantFrom(real.event![1]!, "video/mp4", "contribution", "thank_you"),
      ),
      { maxKeys: 9 },
    );
    const photo = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#c33" } })
      .jpeg()
      .toBuffer();
    const creation = fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/uploads/tus"),
      actor,
      headers: fc.tuple(metadata, fc.constantFrom(String(photo.length), "100000", "0", "-5", "99999999999999")).map(([meta, length]) => ({
        "tus-resumable": "1.0.0",
        "upload-length": length,
        "content-type": "application/offset+octet-stream",
        "upload-metadata": encodeMetadata({ eventUuid: real.event![1]!, uploadToken: contributorToken, filetype: "image/jpeg", ...meta }),
      })),
      // A small photo sent whole with its creation finishes at once: the metadata reaches the media record.
      bytes: fc.constant(photo),
    });
    const elsewhere = fc.record({
      method: fc.constantFrom("HEAD", "PATCH", "DELETE", "GET", "OPTIONS"),
      path: fc.oneof(fc.constantFrom(...RAW_HOSTILE_SEGMENTS), hostileString.map(escapeSegment)).map((id) => `/uploads/tus/${id}`),
      actor,
      headers: fc.constant({ "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" }),
    });
    await fc.assert(fc.asyncProperty(fc.oneof(creation, elsewhere), holds), options(RUNS.tus, TIME_LIMIT_MS.tus));
  }, 60_000);
});
