import { afterEach, describe, expect, test, vi } from "vitest";
import {
  ANALYTICS_COOKIE,
  ANALYTICS_COOKIE_PREFIX,
  ANALYTICS_DELAY_AFTER_REDIRECT_MS,
  analyticsClientIdFromCookie,
  consumeAnalyticsUrlFlags,
  scheduleEventAfterRedirect,
  trackEvent,
} from "~/lib/browser/analytics";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("analyticsClientIdFromCookie", () => {
  test("names the cookie and its version prefix", () => {
    expect(ANALYTICS_COOKIE).toBe("_ga");
    expect(ANALYTICS_COOKIE_PREFIX).toBe("GA1.");
  });

  test("takes the last two parts of a GA1. value", () => {
    expect(analyticsClientIdFromCookie("_ga=GA1.1.1234567890.1699999999")).toBe("1234567890.1699999999");
    expect(analyticsClientIdFromCookie("_ga=GA1.2.42.7")).toBe("42.7");
  });

  test("finds the cookie among others", () => {
    const header = "theme=light; _gid=GA1.1.1.2; _ga=GA1.1.1234567890.1699999999; session=abc";
    expect(analyticsClientIdFromCookie(header)).toBe("1234567890.1699999999");
  });

  test("does not mistake a cookie whose name merely ends in _ga", () => {
    expect(analyticsClientIdFromCookie("x_ga=GA1.1.1.2; my_ga=GA1.1.3.4")).toBeNull();
  });

  test("reads a URL-encoded value", () => {
    expect(analyticsClientIdFromCookie("_ga=GA1%2E1%2E1234567890%2E1699999999")).toBe("1234567890.1699999999");
  });

  test.each([
    ["another version", "_ga=GA2.1.1234567890.1699999999"],
    ["lower-case prefix", "_ga=ga1.1.1234567890.1699999999"],
    ["the version without its dot", "_ga=GA11.1234567890.1699999999"],
    ["the bare version", "_ga=GA1"],
    ["the prefix alone", "_ga=GA1."],
    ["an empty value", "_ga="],
    ["too few parts", "_ga=GA1.1.1234567890"],
    ["too many parts", "_ga=GA1.1.1.1234567890.1699999999"],
    ["non-numeric parts", "_ga=GA1.1.abc.def"],
    ["the prefix in the middle", "_ga=XGA1.1.1234567890.1699999999"],
    ["garbage", "_ga=%%%not-a-cookie"],
    ["no _ga cookie", "theme=light; session=abc"],
  ])("rejects %s", (_case, header) => {
    expect(analyticsClientIdFromCookie(header)).toBeNull();
  });

  test("returns null without a cookie header", () => {
    expect(analyticsClientIdFromCookie(null)).toBeNull();
    expect(analyticsClientIdFromCookie(undefined)).toBeNull();
    expect(analyticsClientIdFromCookie("")).toBeNull();
  });
});

describe("trackEvent", () => {
  test("creates the data layer and pushes the event with its params", () => {
    vi.stubGlobal("window", {});

    trackEvent("sign_up", { method: "email" });

    expect((window as unknown as { dataLayer: unknown[] }).dataLayer).toEqual([{ event: "sign_up", method: "email" }]);
  });

  test("appends to a data layer the tag manager already made", () => {
    const dataLayer: unknown[] = [{ "gtm.start": 1 }];
    vi.stubGlobal("window", { dataLayer });

    trackEvent("login");

    expect(dataLayer).toEqual([{ "gtm.start": 1 }, { event: "login" }]);
  });

  test("does nothing on the server", () => {
    expect(typeof window).toBe("undefined");
    expect(() => trackEvent("login")).not.toThrow();
  });
});

describe("scheduleEventAfterRedirect", () => {
  test("sends the event 4 seconds later, not before", () => {
    vi.useFakeTimers();
    const dataLayer: unknown[] = [];
    vi.stubGlobal("window", { dataLayer });

    scheduleEventAfterRedirect("start_chorus", { eventId: "e1" });

    expect(ANALYTICS_DELAY_AFTER_REDIRECT_MS).toBe(4000);
    vi.advanceTimersByTime(3999);
    expect(dataLayer).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(dataLayer).toEqual([{ event: "start_chorus", eventId: "e1" }]);
  });

  test("uses an injected timer with the 4 s delay", () => {
    const dataLayer: unknown[] = [];
    vi.stubGlobal("window", { dataLayer });
    const setTimeout = vi.fn((callback: () => void, _ms: number) => callback());

    scheduleEventAfterRedirect("login", undefined, { setTimeout });

    expect(setTimeout).toHaveBeenCalledWith(expect.any(Function), 4000);
    expect(dataLayer).toEqual([{ event: "login" }]);
  });
});

describe("consumeAnalyticsUrlFlags", () => {
  test("returns the events to send and the URL without the flags, keeping other params and the hash", () => {
    const url = new URL("https://chorus.test/dashboard?tab=mine&gtm_event_sign_up=1&page=2&gtm_event_login#events");

    expect(consumeAnalyticsUrlFlags(url)).toEqual({
      events: ["sign_up", "login"],
      cleanedUrl: "/dashboard?tab=mine&page=2#events",
    });
  });

  test("drops the question mark when only flags were in the query", () => {
    const url = new URL("https://chorus.test/start-a-chorus?gtm_event_start_chorus=true");

    expect(consumeAnalyticsUrlFlags(url)).toEqual({ events: ["start_chorus"], cleanedUrl: "/start-a-chorus" });
  });

  test("leaves a URL without flags alone", () => {
    const url = new URL("https://chorus.test/dashboard?gtm_event_other=1&tab=mine#x");

    expect(consumeAnalyticsUrlFlags(url)).toEqual({ events: [], cleanedUrl: null });
  });

  test("does not change the URL it was given", () => {
    const url = new URL("https://chorus.test/?gtm_event_login=1");

    consumeAnalyticsUrlFlags(url);

    expect(url.search).toBe("?gtm_event_login=1");
  });
});
