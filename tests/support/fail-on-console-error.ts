import { afterEach, vi } from "vitest";

// An error logged during a test is a failure nobody asserted on: make it fail the test.
let logged: unknown[][] = [];
const original = console.error;

console.error = (...args: unknown[]) => {
  logged.push(args);
  original(...args);
};

afterEach(() => {
  const errors = logged;
  logged = [];
  if (errors.length) throw new Error(`console.error was called:\n${errors.map((a) => a.map(String).join(" ")).join("\n")}`);
});

export const allowConsoleError = () => vi.spyOn(console, "error").mockImplementation(() => {});
