import { describe, expect, test } from "vitest";
import { canAccessAccountOf, hasEditRights, isAdmin, isMember, showsVipCard } from "~/domain/membership";

const user = (fields: Partial<{ subscriptionId: string | null; hasLegacyB2bSubscription: boolean }> = {}) => ({
  subscriptionId: null,
  hasLegacyB2bSubscription: false,
  ...fields,
});

describe("membership (spec §6)", () => {
  test("a subscription makes a member", () => {
    expect(isMember(user({ subscriptionId: "sub_123" }))).toBe(true);
  });
  test("a legacy B2B subscription makes a member", () => {
    expect(isMember(user({ hasLegacyB2bSubscription: true }))).toBe(true);
  });
  test("neither, an empty subscription id, or no user is not a member", () => {
    expect(isMember(user())).toBe(false);
    expect(isMember(user({ subscriptionId: "" }))).toBe(false);
    expect(isMember(null)).toBe(false);
    expect(isMember(undefined)).toBe(false);
  });
  test("the VIP card shows to everyone but members, logged in or not", () => {
    expect(showsVipCard(null)).toBe(true);
    expect(showsVipCard(user())).toBe(true);
    expect(showsVipCard(user({ subscriptionId: "sub_1" }))).toBe(false);
    expect(showsVipCard(user({ hasLegacyB2bSubscription: true }))).toBe(false);
  });
});

describe("edit rights and roles", () => {
  test.each([
    ["admin", true, true],
    ["editor", true, false],
    ["user", false, false],
  ] as const)("%s: edit rights %s, admin %s", (role, edit, admin) => {
    expect(hasEditRights({ role })).toBe(edit);
    expect(isAdmin({ role })).toBe(admin);
  });
  test("nobody has edit rights when logged out", () => {
    expect(hasEditRights(null)).toBe(false);
    expect(isAdmin(undefined)).toBe(false);
  });
  test("account records belong to their owner; staff may see them", () => {
    expect(canAccessAccountOf({ id: "a", role: "user" }, "a")).toBe(true);
    expect(canAccessAccountOf({ id: "a", role: "user" }, "b")).toBe(false);
    expect(canAccessAccountOf({ id: "a", role: "editor" }, "b")).toBe(true);
    expect(canAccessAccountOf({ id: "a", role: "admin" }, "b")).toBe(true);
  });
});
