import { describe, expect, test } from "vitest";
import { appUrlWarning, canonicalAddressFor } from "~/lib/links.server";

describe("the address a page should be opened at", () => {
  test("is nothing to say when the request came to APP_URL's host", () => {
    expect(canonicalAddressFor("http://localhost:3000/e/abc?x=1", "http://localhost:3000")).toBeNull();
  });

  test("is the same page at APP_URL when the request came to another name or port of the server", () => {
    expect(canonicalAddressFor("http://127.0.0.1:3000/e/abc?privateKey=k", "http://localhost:3000")).toBe(
      "http://localhost:3000/e/abc?privateKey=k",
    );
    expect(canonicalAddressFor("http://localhost:8080/dashboard", "https://chorus.example")).toBe("https://chorus.example/dashboard");
  });
});

describe("the start-up warning about APP_URL", () => {
  test("warns when APP_URL names this machine at another port", () => {
    const warning = appUrlWarning("http://localhost:3000", 4000);
    expect(warning).toContain("listens on port 4000");
    expect(warning).toContain("APP_URL=http://localhost:4000");
  });

  test("says nothing when the ports agree, or for a public address behind a proxy", () => {
    expect(appUrlWarning("http://localhost:3000", 3000)).toBeNull();
    expect(appUrlWarning("http://127.0.0.1", 80)).toBeNull();
    expect(appUrlWarning("https://chorus.example", 3000)).toBeNull();
  });
});
