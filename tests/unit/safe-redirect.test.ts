import { describe, expect, test } from "vitest";
import { safeRedirect } from "~/lib/safe-redirect";

describe("safeRedirect", () => {
  test.each([
    ["/e/123e4567-e89b-12d3-a456-426614174000/arrange", "/e/123e4567-e89b-12d3-a456-426614174000/arrange"],
    ["/start-a-chorus?step=review", "/start-a-chorus?step=review"],
    ["/dashboard#mine", "/dashboard#mine"],
    ["/e/../settings/profile", "/settings/profile"],
  ])("keeps the path of this site %s", (to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
  });

  test.each([
    "//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\\evil.example",
    "/%2F/evil.example",
    "/%5C/evil.example",
    "/%09/evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/100%",
    "",
    null,
    undefined,
  ])("sends %j to the dashboard", (to) => {
    expect(safeRedirect(to)).toBe("/dashboard");
  });

  test("a path with characters outside ASCII comes back percent-encoded, fit for a Location header", () => {
    expect(safeRedirect("/\u3002/evil.example")).toBe("/%E3%80%82/evil.example");
  });

  test("what comes back never leaves this origin when a browser resolves it", () => {
    const hostile = ["/\t/evil.example", "/%E3%80%82/evil.example", "/./\\/evil.example", "/.//evil.example", "/a/..//evil.example"];
    for (const to of hostile) {
      const target = new URL(safeRedirect(to), "https://chorus.example");
      expect(target.origin).toBe("https://chorus.example");
    }
  });
});
