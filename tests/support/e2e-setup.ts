import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { RunningServer } from "../../server";
import { launchChromium } from "./browser";
import { startTestServer } from "./test-server";

/**
 * The real server and a Chromium for one describe block, started together and
 * closed after it. Read `.server` and `.browser` inside tests (they are set in beforeAll).
 */
export function useServerAndBrowser(settings: Record<string, string> = {}) {
  const running = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [running.server, running.browser] = await Promise.all([startTestServer(settings), launchChromium()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.close();
  });
  return running;
}
