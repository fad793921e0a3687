import { afterEach, vi } from "vitest";

// An error logged during a test is a failure nobody asserted on: make it fail the test.
// Installed once per process: the unit project runs its files in one process, one after another
// (vitest.config.ts), and this file is set up again for each of them.
const state = globalThis as typeof globalThis & { consoleErrorsLogged?: unknown[][] };
if (!state.consoleErrorsLogged) {
  state.consoleErrorsLogged = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    state.consoleErrorsLogged!.push(args);
    original(...args);
  };
}

afterEach(() => {
  const errors = state.consoleErrorsLogged!.splice(0);
  if (errors.length) throw new Error(`console.error was called:\n${errors.map((a) => a.map(String).join(" ")).join("\n")}`);
});

export const allowConsoleError = () => vi.spyOn(console, "error").mockImplementation(() => {});
