import { z } from "zod";
import { productByKey, type Product } from "./catalogue";
import { formatMoney } from "./money";

// VIP memberships as the billing page and its checkout see them: which plans there are, what
// one costs in words, and where a member stands (docs/decisions/021-vip-membership.md).

export type MembershipPlanKey = "vip-monthly" | "vip-yearly";

export const MEMBERSHIP_PLAN_KEYS = ["vip-monthly", "vip-yearly"] as const satisfies readonly MembershipPlanKey[];

/** POST /v2/subscriptions/checkout and the billing page's Join buttons: which plan. */
export const subscriptionCheckoutInput = z.object({
  plan: z.enum(MEMBERSHIP_PLAN_KEYS, { error: "Choose the monthly or the yearly plan." }),
});

/** A membership plan of the catalogue by key; undefined for anything else (a Chorus, an add-on). */
export function membershipPlan(key: string | null | undefined): (Product & { interval: "month" | "year" }) | undefined {
  const product = key ? productByKey(key) : undefined;
  return product?.kind === "membership" && product.interval ? { ...product, interval: product.interval } : undefined;
}

/** "$9.99 a month", "$99.90 a year". */
export const planPrice = (plan: Pick<Product, "unitAmount" | "currency" | "interval">) =>
  `${formatMoney(plan.unitAmount, plan.currency)} a ${plan.interval ?? "month"}`;

/**
 * Where a membership stands, for people: active; past due (a renewal failed and is being
 * retried, the perks stay); cancelling (it ends at the period's end and will not renew);
 * legacy (an old business plan, not billed here); none.
 */
export type MembershipStanding = "active" | "past_due" | "cancelling" | "legacy" | "none";

export interface MembershipFacts {
  subscriptionId: string | null;
  hasLegacyB2bSubscription: boolean;
  membershipStatus: string | null;
  membershipEndsAt: Date | null;
}

export function membershipStanding(user: MembershipFacts): MembershipStanding {
  if (user.subscriptionId) {
    if (user.membershipStatus === "past_due") return "past_due";
    return user.membershipEndsAt ? "cancelling" : "active";
  }
  return user.hasLegacyB2bSubscription ? "legacy" : "none";
}

export const STANDING_LABEL: Record<MembershipStanding, string> = {
  active: "Active",
  past_due: "Past due: your last payment failed and will be tried again",
  cancelling: "Cancelling: it ends at the end of the period you paid for",
  legacy: "Active (business plan)",
  none: "Not a member",
};

/**
 * The idempotency key of a membership checkout: pressing Join twice in a day opens one payment
 * page, while a membership that changed since (it ended, say) opens a fresh one.
 */
export function membershipCheckoutKey(user: { id: string; membershipChangedAt: Date | null }, plan: MembershipPlanKey, now: Date): string {
  const day = now.toISOString().slice(0, 10);
  return `membership:${user.id}:${plan}:${day}:${user.membershipChangedAt?.getTime() ?? 0}`;
}
