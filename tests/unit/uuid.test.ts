import { describe, expect, test } from "vitest";
import { isUuid } from "~/domain/uuid";

describe("isUuid", () => {
  test("takes a UUID in either case, of any version", () => {
    expect(isUuid("0b7c5e4a-3f3e-4d1a-9d7e-2f5c1b7a9e10")).toBe(true);
    expect(isUuid("0B7C5E4A-3F3E-4D1A-9D7E-2F5C1B7A9E10")).toBe(true);
    expect(isUuid("12345678-1234-1234-1234-123456789012")).toBe(true);
  });

  test("refuses what is not written as one: missing, padded, short, or not text", () => {
    for (const value of [
      undefined,
      null,
      42,
      "",
      "abc",
      " 0b7c5e4a-3f3e-4d1a-9d7e-2f5c1b7a9e10",
      "0b7c5e4a3f3e4d1a9d7e2f5c1b7a9e10",
      "0b7c5e4a-3f3e-4d1a-9d7e-2f5c1b7a9e1g",
    ])
      expect(isUuid(value)).toBe(false);
  });
});
