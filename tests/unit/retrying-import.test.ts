import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { retryingImport, retryingModule } from "~/lib/browser/retrying-import";

/** A load that fails `failures` times (a link cutting the file off), then gives `module`. */
function cutOff<T>(failures: number, module: T) {
  let tries = 0;
  return vi.fn(() =>
    ++tries <= failures ? Promise.reject(new TypeError("Failed to fetch dynamically imported module")) : Promise.resolve(module),
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  // The browser's window, for its online event.
  vi.stubGlobal("window", new EventTarget());
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a part of the app fetched again after a cut", () => {
  test("is tried again after a growing delay until it arrives, and each failed try is told", async () => {
    const load = cutOff(2, "the upload client");
    const failed = vi.fn();
    const loading = retryingImport(load, failed);
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(loading).resolves.toBe("the upload client");
    expect(load).toHaveBeenCalledTimes(3);
    expect(failed).toHaveBeenCalledTimes(2);
  });

  test("is tried again at once when the browser is back online, not at the end of its delay", async () => {
    const load = cutOff(4, "a view");
    const loading = retryingImport(load);
    // Three failures: the next try would be 8 s away.
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(load).toHaveBeenCalledTimes(4);
    window.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    await expect(loading).resolves.toBe("a view");
    expect(load).toHaveBeenCalledTimes(5);
  });

  test("never gives up: a file the server no longer has is asked for every 30 s while the page is open", async () => {
    const load = cutOff(Infinity, "never");
    void retryingImport(load);
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 15_000);
    expect(load).toHaveBeenCalledTimes(6);
    await vi.advanceTimersByTimeAsync(3 * 30_000);
    expect(load).toHaveBeenCalledTimes(9);
  });

  test("a module is fetched once for every caller, and a caller that comes while it waits for signal hears so at once", async () => {
    const load = cutOff(1, "kept files");
    const loadModule = retryingModule(load);
    const first = vi.fn();
    const firstLoading = loadModule(first);
    await vi.advanceTimersByTimeAsync(0);
    expect(first).toHaveBeenCalledTimes(1);
    const second = vi.fn();
    const secondLoading = loadModule(second);
    expect(second).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(Promise.all([firstLoading, secondLoading])).resolves.toEqual(["kept files", "kept files"]);
    expect(load).toHaveBeenCalledTimes(2);
    // Once loaded, a caller waits for nothing and hears nothing.
    const third = vi.fn();
    await expect(loadModule(third)).resolves.toBe("kept files");
    expect(third).not.toHaveBeenCalled();
  });
});
