import { describe, expect, test } from "vitest";
import { loginInput, loginSlowdownMs, profileInput, registerInput } from "~/domain/account-rules";

describe("account input rules", () => {
  test("e-mails are trimmed and checked", () => {
    expect(loginInput.parse({ email: "  ana@example.com ", password: "x" }).email).toBe("ana@example.com");
    expect(loginInput.safeParse({ email: "ana@", password: "x" }).success).toBe(false);
    expect(loginInput.safeParse({ email: `${"a".repeat(250)}@example.com`, password: "x" }).success).toBe(false);
  });
  test("new passwords need 8 to 128 characters", () => {
    const base = { email: "ana@example.com" };
    expect(registerInput.safeParse({ ...base, password: "1234567" }).success).toBe(false);
    expect(registerInput.safeParse({ ...base, password: "12345678" }).success).toBe(true);
    expect(registerInput.safeParse({ ...base, password: "x".repeat(129) }).success).toBe(false);
  });
  test("profile: known time zones only, checkboxes read as booleans, blanks as null", () => {
    expect(profileInput.safeParse({ timeZone: "Europe/Paris" }).success).toBe(true);
    expect(profileInput.safeParse({ timeZone: "Mars/Olympus" }).success).toBe(false);
    expect(profileInput.parse({ marketingOptIn: "on" }).marketingOptIn).toBe(true);
    expect(profileInput.parse({ marketingOptIn: false }).marketingOptIn).toBe(false);
    expect(profileInput.parse({}).marketingOptIn).toBeUndefined();
    expect(profileInput.parse({ phone: "" }).phone).toBeNull();
    expect(profileInput.safeParse({ phone: "call me maybe" }).success).toBe(false);
  });
});

describe("loginSlowdownMs", () => {
  const settings = { limit: 10, stepMs: 500, maxMs: 8000 };
  test("costs nothing below the account's limit", () => {
    expect(loginSlowdownMs(0, settings)).toBe(0);
    expect(loginSlowdownMs(9, settings)).toBe(0);
  });
  test("grows by one step per failure past it, up to the maximum", () => {
    expect(loginSlowdownMs(10, settings)).toBe(500);
    expect(loginSlowdownMs(13, settings)).toBe(2000);
    expect(loginSlowdownMs(1000, settings)).toBe(8000);
  });
});
