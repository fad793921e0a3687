import { describe, expect, test } from "vitest";
import { postedPhrase, refundWords, treesPhrase } from "~/domain/commerce/receipts";

describe("what a receipt says a payment was for", () => {
  test("trees are counted, and a posted product reads as a phrase keeping its capitals", () => {
    expect([treesPhrase(1), treesPhrase(3)]).toEqual(["1 tree", "3 trees"]);
    expect(postedPhrase("DVD of the video", 1)).toBe("a DVD of the video");
    expect(postedPhrase("Printed photo book", 1)).toBe("a printed photo book");
    expect(postedPhrase("Printed photo book", 2)).toBe("2 × Printed photo book");
  });
});

describe("a refund notice's words", () => {
  const paid = { what: "your Chorus", amount: 500, currency: "usd", paidOn: "3 March 2026" };

  test("a refund in full says the whole amount came back", () => {
    const words = refundWords({ ...paid, refunded: 500, previously: 0 });
    expect(words.subject).toBe("Your $5.00 for your Chorus is refunded");
    expect(words.sentence).toBe("We have refunded the $5.00 you paid for your Chorus on 3 March 2026, in full.");
  });

  test("a part says how much of what, and a later part what has come back in all", () => {
    expect(refundWords({ ...paid, refunded: 200, previously: 0 })).toMatchObject({
      subject: "$2.00 of your $5.00 for your Chorus is refunded",
      heading: "Part of your payment is refunded",
    });
    expect(refundWords({ ...paid, refunded: 350, previously: 200 }).sentence).toBe(
      "We have refunded $1.50 of the $5.00 you paid for your Chorus on 3 March 2026. With what was refunded before, $3.50 has come back to you.",
    );
    const rest = refundWords({ ...paid, refunded: 500, previously: 350 });
    expect(rest.subject).toBe("$1.50 of your $5.00 for your Chorus is refunded");
    expect(rest.heading).toBe("Your payment is refunded");
    expect(rest.sentence).toContain("the remaining $1.50");
  });
});
