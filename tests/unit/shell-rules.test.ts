import { describe, expect, test } from "vitest";
import { announcementTone } from "~/domain/announcements";
import { ANALYTICS_URL_FLAGS, copyrightLine, DASHBOARD_TITLE, START_PATH, VIP_CARD_TEXT, VIP_CARD_TITLE } from "~/domain/product";
import { RECONNECTION, REALTIME_NAMESPACES } from "~/realtime/events";

describe("product constants", () => {
  test("the product name shapes routes and titles", () => {
    expect(START_PATH).toBe("/start-a-chorus");
    expect(DASHBOARD_TITLE).toBe("My Choruses");
    expect(VIP_CARD_TITLE).toBe("Go VIP with Chorus");
    expect(VIP_CARD_TEXT).toBe("More savings, more perks, more reasons to celebrate.");
    expect(ANALYTICS_URL_FLAGS).toEqual(["gtm_event_sign_up", "gtm_event_login", "gtm_event_start_chorus"]);
  });
  test("the copyright runs from 2015 to the current year", () => {
    expect(copyrightLine(new Date(2026, 5, 1))).toBe("© 2015–2026 Chorus");
    expect(copyrightLine(new Date(2031, 0, 1))).toBe("© 2015–2031 Chorus");
  });
});

describe("announcements (spec §9)", () => {
  test("a promotion is green, every other type yellow", () => {
    expect(announcementTone("promotion")).toBe("promotion");
    expect(announcementTone("maintenance")).toBe("notice");
    expect(announcementTone("")).toBe("notice");
    expect(announcementTone("Promotion")).toBe("notice");
  });
});

describe("realtime (spec §9)", () => {
  test("exactly three namespaces and the reconnection settings", () => {
    expect(REALTIME_NAMESPACES).toEqual(["/public", "/users", "/staff"]);
    expect(RECONNECTION).toEqual({ reconnectionDelay: 1000, reconnectionDelayMax: 5000, randomizationFactor: 0.5, timeout: 20000 });
  });
});
