import { describe, expect, test } from "vitest";
import {
  membershipCheckoutKey,
  membershipPlan,
  membershipStanding,
  planPrice,
  subscriptionCheckoutInput,
  type MembershipFacts,
} from "~/domain/commerce/memberships";

const facts = (fields: Partial<MembershipFacts> = {}): MembershipFacts => ({
  subscriptionId: null,
  hasLegacyB2bSubscription: false,
  membershipStatus: null,
  membershipEndsAt: null,
  ...fields,
});

describe("membership plans and standing", () => {
  test("only the catalogue's memberships are plans, priced in words by their interval", () => {
    expect(membershipPlan("vip-monthly")).toMatchObject({ unitAmount: 999, interval: "month" });
    expect(planPrice(membershipPlan("vip-yearly")!)).toBe("$99.90 a year");
    expect(membershipPlan("chorus")).toBeUndefined();
    expect(membershipPlan(null)).toBeUndefined();
    expect(subscriptionCheckoutInput.safeParse({ plan: "premium" }).success).toBe(false);
    expect(subscriptionCheckoutInput.parse({ plan: "vip-yearly", price: 1 })).toEqual({ plan: "vip-yearly" });
  });

  test("active, past due, cancelling, a legacy plan, or none", () => {
    expect(membershipStanding(facts({ subscriptionId: "sub_1", membershipStatus: "active" }))).toBe("active");
    expect(membershipStanding(facts({ subscriptionId: "sub_1", membershipStatus: "past_due" }))).toBe("past_due");
    expect(membershipStanding(facts({ subscriptionId: "sub_1", membershipStatus: "active", membershipEndsAt: new Date() }))).toBe(
      "cancelling",
    );
    expect(membershipStanding(facts({ hasLegacyB2bSubscription: true }))).toBe("legacy");
    // An ended subscription leaves its status behind but no subscription: not a member.
    expect(membershipStanding(facts({ membershipStatus: "canceled" }))).toBe("none");
  });

  test("a checkout key is the same for a double press and new once the day or the membership changes", () => {
    const user = { id: "u1", membershipChangedAt: null };
    const morning = new Date("2026-03-12T08:00:00Z");
    const key = membershipCheckoutKey(user, "vip-monthly", morning);
    expect(membershipCheckoutKey(user, "vip-monthly", new Date("2026-03-12T20:00:00Z"))).toBe(key);
    expect(membershipCheckoutKey(user, "vip-yearly", morning)).not.toBe(key);
    expect(membershipCheckoutKey(user, "vip-monthly", new Date("2026-03-13T08:00:00Z"))).not.toBe(key);
    expect(membershipCheckoutKey({ ...user, membershipChangedAt: morning }, "vip-monthly", morning)).not.toBe(key);
  });
});
