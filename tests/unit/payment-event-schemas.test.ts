import { describe, expect, test } from "vitest";
import {
  checkoutSession,
  expiredCheckoutMetadata,
  invoice,
  membershipMetadata,
  refundedCharge,
  subscription,
} from "~/services/commerce/payment-event-schemas";

const ID = "0b7c5e4a-3f3e-4d1a-9d7e-2f5c1b7a9e10";

describe("checkoutSession", () => {
  test("reads a completed session, its payment and customer given as ids or expanded objects", () => {
    const session = {
      id: "cs_1",
      object: "checkout.session",
      payment_status: "paid",
      payment_intent: "pi_1",
      customer: { id: "cus_1", object: "customer" },
      amount_total: 2900,
      currency: "EUR",
      metadata: { kind: "cart", cartId: ID, products: "base" },
    };
    expect(checkoutSession.parse(session)).toEqual({
      id: "cs_1",
      payment_status: "paid",
      payment_intent: "pi_1",
      customer: "cus_1",
      amount_total: 2900,
      currency: "EUR",
      metadata: { kind: "cart", cartId: ID, products: "base" },
    });
    expect(checkoutSession.parse({ ...session, payment_intent: { id: "pi_2" } }).payment_intent).toBe("pi_2");
  });

  test("a field missing or of another type reads as none, and the session is not refused", () => {
    const read = checkoutSession.parse({
      id: "",
      payment_intent: { object: "payment_intent" },
      customer: 7,
      amount_total: 29.5,
      currency: null,
      metadata: ["kind", "cart"],
    });
    expect(read).toEqual({
      id: null,
      payment_intent: null,
      customer: null,
      amount_total: null,
      currency: null,
      metadata: {},
    });
    expect(read.payment_status).toBeUndefined();
    expect(checkoutSession.parse("not a session")).toMatchObject({ id: null, payment_intent: null, metadata: {} });
  });

  test("an expired session's metadata names our row only by a UUID", () => {
    expect(expiredCheckoutMetadata.parse({ kind: "postcard", postcardId: ID })).toMatchObject({ kind: "postcard", postcardId: ID });
    expect(expiredCheckoutMetadata.parse({ kind: "postcard", postcardId: "1 OR 1=1" })).toMatchObject({ postcardId: null });
    expect(expiredCheckoutMetadata.parse({ kind: 3 })).toMatchObject({ kind: null, cartId: null });
  });
});

describe("refundedCharge", () => {
  test("reads the payment and the refunded total so far", () => {
    expect(refundedCharge.parse({ id: "ch_1", payment_intent: "pi_1", amount_refunded: 500, refunded: false })).toEqual({
      payment_intent: "pi_1",
      amount_refunded: 500,
      refunded: false,
    });
    expect(refundedCharge.parse({ payment_intent: { id: "pi_1" }, amount_refunded: 2900, refunded: true }).refunded).toBe(true);
  });

  test("a charge naming no payment, or a refund that is not a whole amount, reads as none", () => {
    expect(refundedCharge.parse({ payment_intent: null, amount_refunded: "500", refunded: "yes" })).toEqual({
      payment_intent: null,
      amount_refunded: null,
      refunded: false,
    });
  });
});

describe("subscription", () => {
  test("reads its state, and the period's end on it or (newer API) on its first item", () => {
    const read = subscription.parse({
      id: "sub_1",
      customer: "cus_1",
      status: "active",
      cancel_at_period_end: true,
      metadata: { userId: ID, plan: "vip-yearly" },
      items: { object: "list", data: [{ id: "si_1", current_period_end: 1_800_000_000 }] },
    });
    expect(read).toMatchObject({
      id: "sub_1",
      customer: "cus_1",
      status: "active",
      current_period_end: null,
      cancel_at: null,
      cancel_at_period_end: true,
      items: { data: [{ current_period_end: 1_800_000_000 }] },
    });
    expect(membershipMetadata.parse(read.metadata)).toEqual({ userId: ID, plan: "vip-yearly" });
  });

  test("a subscription of the wrong shape reads as none in every field", () => {
    expect(subscription.parse({ id: 1, items: "none", cancel_at_period_end: "true" })).toMatchObject({
      id: null,
      status: null,
      cancel_at_period_end: false,
      items: { data: [] },
    });
    expect(membershipMetadata.parse({ userId: "someone", plan: "" })).toEqual({ userId: null, plan: null });
  });
});

describe("invoice", () => {
  test("reads a membership's invoice in the older shape of the API", () => {
    const read = invoice.parse({
      id: "in_1",
      customer: "cus_1",
      subscription: { id: "sub_1" },
      subscription_details: { metadata: { userId: ID } },
      amount_paid: 4900,
      currency: "eur",
      tax: 0,
      subtotal: 4900,
      status_transitions: { paid_at: 1_790_000_000 },
      payment_intent: "pi_1",
    });
    expect(read).toMatchObject({
      id: "in_1",
      subscription: "sub_1",
      subscription_details: { metadata: { userId: ID } },
      amount_paid: 4900,
      status_transitions: { paid_at: 1_790_000_000 },
      payment_intent: "pi_1",
      charge: null,
      payments: { data: [] },
    });
  });

  test("reads the subscription and payment where newer versions of the API put them", () => {
    const read = invoice.parse({
      id: "in_2",
      parent: { subscription_details: { subscription: "sub_2", metadata: { plan: "vip-monthly" } } },
      payments: { data: [{ payment: { type: "payment_intent", payment_intent: { id: "pi_2" } } }] },
    });
    expect(read.subscription).toBeNull();
    expect(read.parent.subscription_details).toEqual({ subscription: "sub_2", metadata: { plan: "vip-monthly" } });
    expect(read.payments.data[0]?.payment).toEqual({ payment_intent: "pi_2", charge: null });
  });

  test("an invoice of another kind reads as none where a membership's would have its fields", () => {
    const read = invoice.parse({ id: "in_3", parent: null, payments: { data: "none" }, amount_paid: null, status_transitions: [] });
    expect(read).toMatchObject({
      subscription: null,
      parent: { subscription_details: { subscription: null, metadata: {} } },
      payments: { data: [] },
      amount_paid: null,
      status_transitions: { paid_at: null },
    });
  });
});
