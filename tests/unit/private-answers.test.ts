import { describe, expect, test } from "vitest";
import { isPrivatePath } from "~/lib/private-answers.server";

describe("which answers are kept by no cache", () => {
  test.each([
    "/dashboard",
    "/settings/billing",
    "/settings/billing/invoices/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11",
    "/settings/profile",
    "/checkout/complete",
    "/api/v2/invoices",
    "/api/v2/carts",
    "/api/v2/carts/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11",
    "/api/v2/stripe/create-checkout-session",
    "/api/stripe/retrieve-session",
    "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11/checkout",
    "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11/postcards/1",
    "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11/post",
    "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11/gift",
    "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11/trees",
    "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11/arrange",
    "/local-payments/checkout/cs_local_1",
    "/local-payments/portal/bps_local_1",
    "/local-gift-cards/1",
    "/local-postcards/1",
    "/local-parcels/ldvd_1",
    "/admin",
    "/admin/payments",
    "/dev/outbox",
  ])("%s", (path) => {
    expect(isPrivatePath(path)).toBe(true);
  });

  test("however the router would still match it: other case, a trailing slash, escapes, doubled slashes", () => {
    for (const path of ["/Dashboard", "/dashboard/", "/%64ashboard", "//settings//billing", "/SETTINGS/Billing/"]) {
      expect(isPrivatePath(path), path).toBe(true);
    }
  });

  test("public pages and the API's answers that are the same for everyone may be kept", () => {
    for (const path of ["/", "/auth/login", "/video-maker/school-video", "/build/entry.js", "/e/6f1c1b0e-4a53-4f7e-9d43-0e8f9d3f2a11"]) {
      expect(isPrivatePath(path), path).toBe(false);
    }
    for (const path of ["/api/v2/geo-countries", "/api/v2/announcements/active", "/API/v2/geo-countries/"]) {
      expect(isPrivatePath(path), path).toBe(false);
    }
    // Names that only begin like a private page's are not it.
    for (const path of ["/dashboards", "/settingsx", "/administration", "/e/x/checkouts"]) expect(isPrivatePath(path), path).toBe(false);
  });
});
