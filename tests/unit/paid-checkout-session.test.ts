import { describe, expect, test } from "vitest";
import { readPaidCheckoutSession } from "~/services/commerce/paid-checkout-session";

const ID = "0b7c5e4a-3f3e-4d1a-9d7e-2f5c1b7a9e10";

describe("readPaidCheckoutSession", () => {
  test("reads our row, the payment (as an id or an expanded object), the amount and the session", () => {
    const session = {
      id: "cs_1",
      payment_status: "paid",
      payment_intent: { id: "pi_1" },
      amount_total: 1500,
      metadata: { treeContributionId: ID },
    };
    expect(readPaidCheckoutSession(session, "treeContributionId")).toEqual({
      paid: true,
      ourId: ID,
      paymentIntentId: "pi_1",
      amount: 1500,
      checkoutSessionId: "cs_1",
    });
    expect(readPaidCheckoutSession({ ...session, payment_intent: "pi_2" }, "treeContributionId")).toMatchObject({
      paymentIntentId: "pi_2",
    });
  });

  test("a session not paid yet says so; one without a payment status is taken as paid", () => {
    expect(readPaidCheckoutSession({ payment_status: "unpaid", metadata: { postcardId: ID } }, "postcardId")).toEqual({ paid: false });
    expect(readPaidCheckoutSession({ metadata: { postcardId: ID } }, "postcardId")).toMatchObject({ paid: true, ourId: ID });
  });

  test("fields that are missing or of another type read as none, rather than failing the event", () => {
    const read = readPaidCheckoutSession(
      { id: 7, payment_intent: "", amount_total: "1500", metadata: { postcardId: "not-ours" } },
      "postcardId",
    );
    expect(read).toEqual({ paid: true, ourId: null, paymentIntentId: null, amount: null, checkoutSessionId: null });
    expect(readPaidCheckoutSession({ metadata: "odd" }, "postcardId")).toMatchObject({ paid: true, ourId: null });
  });
});
