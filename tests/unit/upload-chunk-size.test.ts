import { describe, expect, test } from "vitest";
import { chunkSizeAfterFailure, FIRST_CHUNK_BYTES, LARGEST_CHUNK_BYTES, nextChunkSize } from "~/lib/browser/upload-chunk-size";

const MB = 1024 * 1024;

describe("the size of the next upload chunk", () => {
  test("a full chunk that arrives fast doubles the next one, up to the largest", () => {
    expect(nextChunkSize(2 * MB, { bytes: 2 * MB, ms: 300 })).toBe(4 * MB);
    expect(nextChunkSize(LARGEST_CHUNK_BYTES, { bytes: LARGEST_CHUNK_BYTES, ms: 300 })).toBe(LARGEST_CHUNK_BYTES);
  });
  test("a slow chunk halves the next one, never below the first size", () => {
    expect(nextChunkSize(16 * MB, { bytes: 16 * MB, ms: 9000 })).toBe(8 * MB);
    expect(nextChunkSize(FIRST_CHUNK_BYTES, { bytes: FIRST_CHUNK_BYTES, ms: 9000 })).toBe(FIRST_CHUNK_BYTES);
  });
  test("an ordinary chunk keeps the size, and a short last piece says nothing about the link", () => {
    expect(nextChunkSize(8 * MB, { bytes: 8 * MB, ms: 2500 })).toBe(8 * MB);
    expect(nextChunkSize(8 * MB, { bytes: 1 * MB, ms: 50 })).toBe(8 * MB);
  });
  test("after a failure the next chunk is small again", () => {
    expect(chunkSizeAfterFailure()).toBe(FIRST_CHUNK_BYTES);
  });
});
