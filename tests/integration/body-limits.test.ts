import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { postChunked } from "../support/chunked-post";
import { startTestServer } from "../support/test-server";

// Request bodies are counted as they stream and refused past their bound: a chunked body has no
// Content-Length to check first, and two 500 MB chunked posts once took the server from 0.7 to
// 2.9 GB. Each post here is 256 MB, chunked, written as the socket takes it, and goes on after the
// answer: the answer must come once about the bound has been read, and the server must stop reading
// (the connection is closed long before the 256 MB are through), holding none of it.

const MB = 1024 * 1024;
const BODY = 256 * MB;
/**
 * What the kernel's buffers on both ends of a loopback connection may hold besides what the server
 * read: Linux grows a receive buffer up to tcp_rmem's largest (32 MB here), a send buffer up to 4 MB.
 */
const SOCKET_BUFFERS = 40 * MB;

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const errorShape = { success: false, error: { code: "PAYLOAD_TOO_LARGE", message: "The request body is too large." } };
const KEEP_ALIVE = { connection: "keep-alive" };

/** The server answered after reading about `bound` bytes, and stopped reading: the rest never went. */
function expectCutShort(outcome: Awaited<ReturnType<typeof postChunked>>, bound: number) {
  expect(outcome.sentBeforeAnswer).not.toBeNull();
  expect(outcome.sentBeforeAnswer!).toBeLessThan(bound + SOCKET_BUFFERS);
  expect(outcome.sent).toBeLessThan(bound + 2 * MB + SOCKET_BUFFERS);
  expect(outcome.sent).toBeLessThan(BODY);
}

describe("a chunked body past its bound is refused with a 413 while it streams, and read no further", () => {
  test("POST /stripe/webhook: 1 MB", async () => {
    const outcome = await postChunked(server.port, "/stripe/webhook", {
      totalBytes: BODY,
      headers: { ...KEEP_ALIVE, "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toEqual(errorShape);
    expectCutShort(outcome, MB);
  });

  test("POST /lob/webhook: 256 KB", async () => {
    const outcome = await postChunked(server.port, "/lob/webhook", {
      totalBytes: BODY,
      headers: { ...KEEP_ALIVE, "content-type": "application/json", "lob-signature": "00", "lob-signature-timestamp": "1" },
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toEqual(errorShape);
    expectCutShort(outcome, MB / 4);
  });

  test("the local payment service's API: 256 KB, refused in Stripe's error shape, which the SDK reads", async () => {
    const outcome = await postChunked(server.port, "/local-payments/v1/checkout/sessions", {
      totalBytes: BODY,
      headers: { ...KEEP_ALIVE, "content-type": "application/x-www-form-urlencoded", authorization: "Bearer sk_test_wrong" },
      chunk: Buffer.from("metadata[a]=b&".repeat(4096)),
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toEqual({ error: { type: "invalid_request_error", message: "The request body is too large." } });
    expectCutShort(outcome, MB / 4);
  });

  test("an /api call's JSON body: 1 MB", async () => {
    const outcome = await postChunked(server.port, "/api/v2/auth/check-user", {
      totalBytes: BODY,
      headers: { ...KEEP_ALIVE, "content-type": "application/json" },
      chunk: Buffer.from(`{"email":"${"a".repeat(64 * 1024)}`),
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toEqual(errorShape);
    expectCutShort(outcome, MB);
  });

  test("a page's form: 1 MB, answered on the page", async () => {
    const outcome = await postChunked(server.port, "/auth/login", {
      totalBytes: BODY,
      headers: { ...KEEP_ALIVE, "content-type": "application/x-www-form-urlencoded" },
      chunk: Buffer.from(`email=${"a".repeat(64 * 1024)}`),
    });
    expect(outcome.status).toBe(413);
    expect(outcome.body).toContain("This form is too large to send.");
    expectCutShort(outcome, MB);
  });

  test("a multipart upload of nothing but fields: 1 MB besides its files", async () => {
    const { client } = await loggedInUser(server.url);
    // Complete parts of 8 KB each, every one under the 16 KB a field may have: only their sum is too much.
    const part = Buffer.from(`--B\r\nContent-Disposition: form-data; name="title"\r\n\r\n${"x".repeat(8 * 1024)}\r\n`);
    const outcome = await postChunked(server.port, "/api/v2/tracks", {
      totalBytes: BODY,
      headers: { ...KEEP_ALIVE, "content-type": "multipart/form-data; boundary=B", cookie: client.cookieHeader() },
      chunk: Buffer.concat(Array.from({ length: 8 }, () => part)),
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toEqual(errorShape);
    expectCutShort(outcome, MB);
  });
});
