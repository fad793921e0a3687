import { describe, expect, test } from "vitest";
import { nextStepOf, type ChorusProgress } from "~/domain/next-step";

const fresh: ChorusProgress = {
  contributions: 0,
  collecting: true,
  arranged: false,
  published: false,
  unlocked: false,
  deliveryScheduledFor: null,
  delivered: false,
  thanked: false,
};

describe("the organiser's next step", () => {
  test("with nothing arrived yet, it is inviting people or sharing the link", () => {
    const step = nextStepOf(fresh);
    expect(step.kind).toBe("invite");
    expect(step.action?.to).toEqual({ section: "invite" });
    expect(step.also?.to).toEqual({ section: "share" });
  });

  test("with nothing arrived and collection closed, it points to the settings that reopen it", () => {
    const step = nextStepOf({ ...fresh, collecting: false });
    expect(step.kind).toBe("reopen");
    expect(step.action?.to).toEqual({ section: "settings" });
  });

  test("once contributions arrive, it is arranging and previewing, counting them", () => {
    const step = nextStepOf({ ...fresh, contributions: 1 });
    expect(step.kind).toBe("arrange");
    expect(step.text).toContain("1 contribution so far.");
    expect(step.action?.to).toEqual({ page: "arrange" });
    expect(step.also?.to).toEqual({ section: "invite" });
    expect(nextStepOf({ ...fresh, contributions: 3, collecting: false }).also).toBeNull();
    expect(nextStepOf({ ...fresh, contributions: 3 }).text).toContain("3 contributions so far.");
  });

  test("once arranged, it is rendering and publishing", () => {
    const step = nextStepOf({ ...fresh, contributions: 2, arranged: true });
    expect(step.kind).toBe("publish");
    expect(step.action?.to).toEqual({ page: "arrange" });
  });

  test("a published video that is not paid for asks for payment before delivery", () => {
    const step = nextStepOf({ ...fresh, contributions: 2, arranged: true, published: true });
    expect(step.kind).toBe("pay");
    expect(step.action?.to).toEqual({ page: "checkout" });
  });

  test("a published video that is paid for (or free) is delivered next, saying when it is scheduled", () => {
    const ready = { ...fresh, contributions: 2, arranged: true, published: true, unlocked: true };
    expect(nextStepOf(ready)).toMatchObject({ kind: "deliver", title: "Deliver it", action: { to: { section: "deliver" } } });
    const scheduled = nextStepOf({ ...ready, deliveryScheduledFor: "Sat 5 Dec 2026, 09:00" });
    expect(scheduled.title).toBe("Delivery is scheduled");
    expect(scheduled.text).toContain("Sat 5 Dec 2026, 09:00");
  });

  test("being free unlocks delivery without payment", () => {
    expect(nextStepOf({ ...fresh, contributions: 1, published: true, unlocked: true }).kind).toBe("deliver");
  });

  test("delivered, then refunded in full, it asks for payment again to open the recipient's link", () => {
    const refunded = nextStepOf({ ...fresh, contributions: 2, arranged: true, published: true, delivered: true, thanked: true });
    expect(refunded).toMatchObject({ kind: "pay", title: "Pay to open it again", action: { to: { page: "checkout" } } });
    expect(refunded.text).toContain("no longer play the video");
  });

  test("once delivered, it waits for the thank-you, then shows it", () => {
    const delivered = { ...fresh, contributions: 2, arranged: true, published: true, unlocked: true, delivered: true };
    const waiting = nextStepOf(delivered);
    expect(waiting.kind).toBe("await-thanks");
    expect(waiting.action).toBeNull();
    const thanked = nextStepOf({ ...delivered, thanked: true });
    expect(thanked.kind).toBe("thank-you");
    expect(thanked.action?.to).toEqual({ section: "thank-you" });
  });
});
