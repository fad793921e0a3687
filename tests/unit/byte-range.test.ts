import { describe, expect, test } from "vitest";
import { parseByteRange } from "~/lib/byte-range";

describe("Range header parsing", () => {
  test.each([
    ["bytes=0-", { start: 0, end: 999 }],
    ["bytes=100-199", { start: 100, end: 199 }],
    ["bytes=900-5000", { start: 900, end: 999 }],
    ["bytes=-100", { start: 900, end: 999 }],
    ["bytes=-5000", { start: 0, end: 999 }],
  ])("%s of a 1000-byte file", (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });
  test("ranges outside the file are unsatisfiable", () => {
    expect(parseByteRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=5-4", 1000)).toBe("unsatisfiable");
    expect(parseByteRange("bytes=-0", 1000)).toBe("unsatisfiable");
  });
  test("no header, several ranges or another unit mean the whole file", () => {
    expect(parseByteRange(null, 1000)).toBeNull();
    expect(parseByteRange("bytes=0-1,5-6", 1000)).toBeNull();
    expect(parseByteRange("items=0-1", 1000)).toBeNull();
  });
});
