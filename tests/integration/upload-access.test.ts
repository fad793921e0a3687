import crypto from "node:crypto";
import http from "node:http";
import type { Event } from "drizzle/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { createUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { makeTempDir, mp4LikeBytes } from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";
import { create, encodeMetadata, head, patch } from "../support/tus-client";

// An upload's address gives a stranger nothing (docs/decisions/013): its HEAD, PATCH and DELETE are
// its uploader's, who sends the token the upload was made with; nothing the server answers carries
// that token or the recipient's key; and only the app's own pages may read the answers.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let event: Event;

beforeAll(async () => {
  files = await makeTempDir("upload-access");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data") });
  event = await createTestEvent(await createUser());
});
afterAll(async () => {
  await server?.close();
  await files?.remove();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request as a stranger's script or tool would make it: no token unless given, any Origin. */
function request(method: string, path: string, headers: Record<string, string> = {}, body?: Uint8Array) {
  return new Promise<Answer>((resolve, reject) => {
    const sent = http.request(
      new URL(path, server.url),
      { method, headers: { "Tus-Resumable": "1.0.0", "Content-Length": String(body?.byteLength ?? 0), ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

const everythingSaid = (answer: Answer) => JSON.stringify(answer.headers) + answer.body;
const decoded = (answer: Answer) =>
  String(answer.headers["upload-metadata"] ?? "")
    .split(",")
    .map((pair) => Buffer.from(pair.split(" ")[1] ?? "", "base64").toString("utf8"))
    .join(" ");

async function startedUpload(extra: Record<string, string> = {}) {
  const token = crypto.randomBytes(24).toString("base64url");
  const bytes = mp4LikeBytes(64 * 1024);
  const path = await create(server.url, bytes.byteLength, {
    eventUuid: event.uuid,
    filename: "clip.mp4",
    filetype: "video/mp4",
    contributorName: "Cyrus",
    caption: "Happy birthday!",
    purpose: "contribution",
    uploadToken: token,
    ...extra,
  });
  return { token, bytes, path };
}

describe("an upload's address", () => {
  test("asked for by a stranger, it says nothing: no token, no name, no offset; its uploader hears it all but the token", async () => {
    const { token, path } = await startedUpload();
    const stranger = await request("HEAD", path);
    expect(stranger.status).toBe(404);
    expect(stranger.headers["upload-metadata"]).toBeUndefined();
    expect(stranger.headers["upload-offset"]).toBeUndefined();
    expect((await request("HEAD", path, { "X-Upload-Token": "not-the-token-of-this-upload" })).status).toBe(404);

    const uploader = await request("HEAD", path, { "X-Upload-Token": token });
    expect(uploader.status).toBe(200);
    expect(uploader.headers["upload-offset"]).toBe("0");
    expect(decoded(uploader)).toContain("Cyrus");
    // Never the token itself, in any form.
    for (const form of [token, Buffer.from(token).toString("base64")]) expect(everythingSaid(uploader)).not.toContain(form);
  });

  test("a stranger's PATCH adds nothing and a stranger's DELETE removes nothing; the uploader goes on", async () => {
    const { token, bytes, path } = await startedUpload();
    const half = bytes.byteLength / 2;
    const appended = await request(
      "PATCH",
      path,
      { "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      bytes.subarray(0, half),
    );
    expect(appended.status).toBe(404);
    expect(await head(server.url, path)).toBe(0);
    expect((await request("DELETE", path)).status).toBe(404);
    expect(await head(server.url, path)).toBe(0);

    const sent = await patch(server.url, path, 0, bytes);
    expect(sent.offset).toBe(bytes.byteLength);
    expect(sent.mediaUuid).toMatch(/^[0-9a-f-]{36}$/);
    // Finished: a stranger's HEAD still says nothing, not even which item it became.
    const late = await request("HEAD", path);
    expect(late.status).toBe(404);
    expect(late.headers["chorus-media-id"]).toBeUndefined();
    expect((await request("HEAD", path, { "X-Upload-Token": token })).headers["chorus-media-id"]).toBe(sent.mediaUuid);
  });

  test("a thank-you video's upload keeps no copy of the recipient's key", async () => {
    const { token, path } = await startedUpload({ purpose: "thank_you", privateKey: event.privateKey });
    const uploader = await request("HEAD", path, { "X-Upload-Token": token });
    expect(uploader.status).toBe(200);
    expect(decoded(uploader)).not.toContain(event.privateKey);
    expect(everythingSaid(uploader)).not.toContain(Buffer.from(event.privateKey).toString("base64"));
  });

  test("another site's page cannot read the endpoint's answers: they name the app's own origin, not *", async () => {
    const { token, bytes, path } = await startedUpload();
    const appOrigin = new URL(server.url).origin;
    const evil = { Origin: "https://evil.example" };
    // Reads from another site are answered for the app's origin only, so the browser keeps them from that site's script.
    const offset = await request("HEAD", path, { ...evil, "X-Upload-Token": token });
    const refused = await request("HEAD", path, evil);
    // Its writes are refused before they reach the endpoint (the app's cross-origin check).
    const creation = await request("POST", "/uploads/tus", {
      ...evil,
      "Upload-Length": "10",
      "Upload-Metadata": encodeMetadata({ eventUuid: event.uuid, uploadToken: token, filetype: "video/mp4" }),
    });
    // The app's own pages: the chunk written beside tus says the same as tus.
    const chunk = await request(
      "PATCH",
      path,
      { Origin: appOrigin, "X-Upload-Token": token, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      bytes.subarray(0, 1024),
    );
    expect([offset.status, refused.status, creation.status, chunk.status]).toEqual([200, 404, 403, 204]);
    for (const answer of [offset, refused, chunk]) expect(answer.headers["access-control-allow-origin"]).toBe(appOrigin);
  });
});
