interface UntilOptions {
  /** Give up after this long (ms). */
  timeout?: number;
  /** Wait this long between two checks (ms). */
  interval?: number;
  /** What is awaited, for the error; a function is asked at the time, so it can tell the last state seen. */
  what: string | (() => string);
}

/**
 * Checks again and again until `check` gives a truthy value, and returns that value; throws when
 * `timeout` passes first. For what tests wait on outside a browser: jobs, processing, servers.
 */
export async function until<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  options: UntilOptions,
): Promise<T> {
  const { timeout = 60_000, interval = 250, what } = options;
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeout) {
      throw new Error(`timed out after ${timeout} ms waiting for ${typeof what === "function" ? what() : what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
