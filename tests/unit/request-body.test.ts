import { describe, expect, test } from "vitest";
import { readBodyBytes } from "~/lib/request-body.server";

const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

/** A body of `total` bytes made as it is read, counting what was taken from it and whether it was cancelled. */
function countedBody(total: number) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled >= total) return controller.close();
        seen.pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, seen };
}

const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request("http://localhost/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

const tooLarge = () => new Error("too large");

describe("a request body read with a bound", () => {
  test("a body within its bound is read whole", async () => {
    const { body } = countedBody(10 * CHUNK);
    const bytes = await readBodyBytes(post(body), MB, tooLarge);
    expect(bytes.byteLength).toBe(10 * CHUNK);
  });

  test("a 500 MB body with no length is refused; past its bound at most 1 MB more is read, and dropped, before it is cancelled", async () => {
    const { body, seen } = countedBody(500 * MB);
    await expect(readBodyBytes(post(body), MB, tooLarge)).rejects.toThrow("too large");
    await expect.poll(() => seen.cancelled, { timeout: 5_000 }).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(2 * MB + 2 * CHUNK);
  });

  test("a body a little over its bound is refused and read to its end, not cancelled", async () => {
    const { body, seen } = countedBody(MB + 4 * CHUNK);
    await expect(readBodyBytes(post(body), MB, tooLarge)).rejects.toThrow("too large");
    await expect.poll(() => seen.pulled, { timeout: 5_000 }).toBe(MB + 4 * CHUNK);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(seen.cancelled).toBe(false);
  });

  test("a declared length past the bound is refused before a byte is kept, and the body cancelled", async () => {
    const { body, seen } = countedBody(500 * MB);
    const reading = readBodyBytes(post(body, { "content-length": String(500 * MB) }), MB, tooLarge);
    await expect(reading).rejects.toThrow("too large");
    await expect.poll(() => seen.cancelled, { timeout: 5_000 }).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(MB + 2 * CHUNK);
  });
});
