import { describe, expect, test } from "vitest";
import { dueReminder } from "~/domain/reminders";

const DAY = 24 * 60 * 60 * 1000;
const deadline = new Date("2027-03-10T18:00:00Z");
const at = (msBeforeDeadline: number) => new Date(deadline.getTime() - msBeforeDeadline);
const invitedLongAgo = at(10 * DAY);

describe("reminder schedule", () => {
  test("nothing before three days out", () => {
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(3 * DAY + 60_000), [])).toBeNull();
  });
  test("the three-day reminder from three days out", () => {
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(3 * DAY), [])).toBe("3d");
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(2 * DAY), [])).toBe("3d");
  });
  test("each reminder once", () => {
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(2 * DAY), ["3d"])).toBeNull();
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(DAY / 2), ["3d"])).toBe("1d");
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(DAY / 2), ["3d", "1d"])).toBeNull();
  });
  test("a missed three-day reminder is not sent after the one-day one", () => {
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(DAY / 2), [])).toBe("1d");
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(DAY / 3), ["1d"])).toBeNull();
  });
  test("none after the deadline", () => {
    expect(dueReminder({ deadline, invitedAt: invitedLongAgo }, at(-60_000), [])).toBeNull();
  });
  test("none within 12 hours of the invitation", () => {
    expect(dueReminder({ deadline, invitedAt: at(2 * DAY + 3600_000) }, at(2 * DAY), [])).toBeNull();
    expect(dueReminder({ deadline, invitedAt: at(3 * DAY) }, at(2 * DAY), [])).toBe("3d");
  });
});
