import { useEffect, type RefObject } from "react";

// The chat button floats over the page's bottom right corner, where forms put their buttons (Apply
// beside a promo code, the sticky Use this theme of the arrange page) and their errors. It never
// covers one: while one is under it, the button moves up just clear of it, and when there is no
// room for that within reach of the corner, it steps aside (hidden) until the page scrolls on. The
// page keeps room below its content too (app.css), so without JavaScript the last lines clear it.

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the chat button must never cover: a form's buttons and the messages that say what went wrong. */
const KEEP_CLEAR = [
  "button",
  "input[type=submit]",
  "input[type=button]",
  "input[type=reset]",
  ".button",
  ".field-error",
  ".form-error",
  "[role=alert]",
]
  .map((selector) => `main ${selector}`)
  .join(", ");

/** Space kept between the button and what it moves clear of, in CSS pixels. */
const GAP = 8;
/** How far up it may move, as a share of the window's height: higher, it would float mid-page. */
const MAX_SHIFT = 0.4;

const overlaps = (a: Box, b: Box, gap = 0) =>
  a.x - gap < b.x + b.width && b.x < a.x + a.width + gap && a.y - gap < b.y + b.height && b.y < a.y + a.height + gap;

/**
 * How far up the button moves from `home` (its place in the corner) so that it covers none of
 * `obstacles`: 0 when it covers nothing there, null when it would have to go higher than `maxShift`
 * (then it steps aside). Each step puts it just above the highest box it still covers, so it ends
 * above a stack of buttons rather than between two of them.
 */
export function chatShift(home: Box, obstacles: readonly Box[], maxShift: number): number | null {
  let shift = 0;
  for (let tries = 0; tries <= obstacles.length; tries++) {
    const at = { ...home, y: home.y - shift };
    const covered = obstacles.filter((box) => overlaps(at, box, GAP));
    if (covered.length === 0) return shift;
    shift = home.y + home.height + GAP - Math.min(...covered.map((box) => box.y));
    if (shift > maxShift) return null;
  }
  return null;
}

/** The boxes of what is on screen in the column the button floats over. */
function boxesBeside(column: { left: number; right: number }, viewportHeight: number): Box[] {
  const boxes: Box[] = [];
  for (const element of document.querySelectorAll<HTMLElement>(KEEP_CLEAR)) {
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0 || rect.bottom < 0 || rect.top > viewportHeight) continue;
    if (rect.right < column.left - GAP || rect.left > column.right + GAP) continue;
    if (getComputedStyle(element).visibility === "hidden") continue;
    boxes.push({ x: rect.left, y: rect.top, width: rect.width, height: rect.height });
  }
  return boxes;
}

/**
 * Keeps the chat button (`ref`, the widget) clear of the page's form buttons and errors as the page
 * scrolls, resizes or changes (an error appearing after a press). It sets `--chat-shift` (how far up
 * it moved) and `data-aside` (stepped aside) on the widget; an open panel stays where it is.
 */
export function useChatClearance(ref: RefObject<HTMLElement>) {
  useEffect(() => {
    const widget = ref.current;
    const button = widget?.querySelector("summary");
    if (!widget || !button) return;
    let frame = 0;
    const place = () => {
      frame = 0;
      if (widget.hasAttribute("open")) return;
      // Its place in the corner, from its CSS: where it is drawn now may be half way through a move.
      const rect = button.getBoundingClientRect();
      const viewportHeight = document.documentElement.clientHeight;
      const bottom = parseFloat(getComputedStyle(widget).bottom) || 0;
      const home = { x: rect.left, y: viewportHeight - bottom - rect.height, width: rect.width, height: rect.height };
      const obstacles = boxesBeside({ left: rect.left, right: rect.right }, viewportHeight);
      const shift = chatShift(home, obstacles, viewportHeight * MAX_SHIFT);
      widget.style.setProperty("--chat-shift", `${shift ?? 0}px`);
      widget.toggleAttribute("data-aside", shift === null);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(place);
    };
    schedule();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    widget.addEventListener("toggle", schedule);
    const main = document.getElementById("main");
    const changes = new MutationObserver(schedule);
    if (main) changes.observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden", "class", "style"] });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      widget.removeEventListener("toggle", schedule);
      changes.disconnect();
    };
  }, [ref]);
}
