import { describe, expect, test } from "vitest";
import { chatShift } from "~/components/shell/chat-clearance";

// Where the chat button goes so that it covers none of a form's buttons or errors (a phone's corner:
// a 48 px button 16 px from the bottom of an 812 px window).

const HOME = { x: 315, y: 748, width: 48, height: 48 };
const MAX = 812 * 0.4;

describe("the chat button's way clear of a form", () => {
  test("stays in its corner when nothing is under it, or what is near is beside it", () => {
    expect(chatShift(HOME, [], MAX)).toBe(0);
    expect(chatShift(HOME, [{ x: 20, y: 740, width: 200, height: 44 }], MAX)).toBe(0);
  });

  test("moves up just above a button under it, with a gap", () => {
    // A sticky button across the card, 12 px from the bottom: the chat button ends 8 px above its top.
    expect(chatShift(HOME, [{ x: 45, y: 756, width: 285, height: 44 }], MAX)).toBe(748 + 48 + 8 - 756);
  });

  test("clears a stack of buttons and errors, ending above the highest it would land on", () => {
    const button = { x: 200, y: 740, width: 160, height: 44 };
    const error = { x: 20, y: 700, width: 340, height: 20 };
    const unrelated = { x: 20, y: 500, width: 100, height: 44 };
    const shift = chatShift(HOME, [button, error, unrelated], MAX)!;
    expect(HOME.y + HOME.height - shift).toBeLessThanOrEqual(error.y - 8);
    expect(shift).toBe(HOME.y + HOME.height + 8 - error.y);
  });

  test("steps aside (null) when clearing them would take it too far up the page", () => {
    const tall = { x: 300, y: 400, width: 60, height: 400 };
    expect(chatShift(HOME, [tall], MAX)).toBeNull();
  });
});
