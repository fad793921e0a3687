import { describe, expect, test } from "vitest";
import { addBusinessDays, formatDeliveryDay, isCalendarDay, parcelDeliveryDay, postcardDeliveryDay } from "~/domain/delivery-estimate";

// When something posted should arrive: business days from the day the service took it, weekends skipped.

// Wednesday 4 March 2026, mid-afternoon UTC.
const WEDNESDAY = new Date("2026-03-04T15:30:00Z");

describe("business days", () => {
  test("skip Saturdays and Sundays, counted from the day after", () => {
    expect(addBusinessDays(WEDNESDAY, 1)).toBe("2026-03-05");
    expect(addBusinessDays(WEDNESDAY, 2)).toBe("2026-03-06");
    // Friday + 1 is the Monday; so is Saturday + 1 and Sunday + 1.
    expect(addBusinessDays(new Date("2026-03-06T09:00:00Z"), 1)).toBe("2026-03-09");
    expect(addBusinessDays(new Date("2026-03-07T09:00:00Z"), 1)).toBe("2026-03-09");
    expect(addBusinessDays(new Date("2026-03-08T23:59:00Z"), 1)).toBe("2026-03-09");
    expect(addBusinessDays(WEDNESDAY, 10)).toBe("2026-03-18");
    // Across a month and a year.
    expect(addBusinessDays(new Date("2025-12-30T12:00:00Z"), 5)).toBe("2026-01-06");
  });

  test("only real days written YYYY-MM-DD are days", () => {
    expect(isCalendarDay("2026-03-13")).toBe(true);
    expect(isCalendarDay("2026-02-30")).toBe(false);
    expect(isCalendarDay("13/03/2026")).toBe(false);
    expect(isCalendarDay("2026-3-13")).toBe(false);
  });

  test("a day is said as people say it", () => {
    expect(formatDeliveryDay("2026-03-13")).toBe("Friday 13 March");
  });
});

describe("expected deliveries", () => {
  test("a postcard: 2 business days to print and post, then up to 5 in the United States or 10 abroad", () => {
    expect(postcardDeliveryDay(WEDNESDAY, "US")).toBe("2026-03-13");
    expect(postcardDeliveryDay(WEDNESDAY, "GB")).toBe("2026-03-20");
  });

  test("a DVD is made in 2 business days and a photo book in 5, then posted by zone", () => {
    expect(parcelDeliveryDay(WEDNESDAY, "dvd", "US")).toBe("2026-03-13");
    expect(parcelDeliveryDay(WEDNESDAY, "keepsake", "US")).toBe("2026-03-18");
    expect(parcelDeliveryDay(WEDNESDAY, "dvd", "CA")).toBe("2026-03-18");
    expect(parcelDeliveryDay(WEDNESDAY, "keepsake", "GB")).toBe("2026-03-25");
  });
});
