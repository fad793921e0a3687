import { describe, expect, test } from "vitest";
import { addressLines, postalAddressInput } from "~/domain/postal-address";

const served = new Set(["US", "CA", "GB", "DE", "NL", "JP"]);
const parse = (input: Record<string, unknown>) => postalAddressInput(served).safeParse(input);
const messages = (input: Record<string, unknown>) => {
  const result = parse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

const home = { name: "Ada Lovelace", line1: "12 Elm St", city: "Springfield", region: "il", postalCode: "62704", country: "us" };

describe("postal addresses", () => {
  test("a complete address is normalised: country, US state and postal code as the post writes them", () => {
    const result = parse({ ...home, line2: "  " });
    expect(result.success && result.data).toEqual({ ...home, line2: null, region: "IL", country: "US" });
    const london = parse({ name: "B", line1: "10 Downing St", city: "London", postalCode: "sw1a2aa", country: "GB" });
    expect(london.success && london.data.postalCode).toBe("SW1A 2AA");
    const amsterdam = parse({ name: "C", line1: "Dam 1", city: "Amsterdam", postalCode: "1012jS", country: "NL" });
    expect(amsterdam.success && amsterdam.data.postalCode).toBe("1012 JS");
  });

  test("each missing or malformed part is named with how to write it", () => {
    expect(messages({ ...home, postalCode: "6270" })).toEqual({ postalCode: "Enter the postal code like 10001 or 10001-1234." });
    expect(messages({ ...home, region: "" })).toEqual({ region: "Enter the state, like NY." });
    expect(messages({ ...home, region: "Illinois" })).toEqual({ region: "Enter the state as its two letters, like NY." });
    expect(messages({ ...home, name: " ", line1: undefined })).toMatchObject({
      name: "Enter the name of the person it goes to.",
      line1: "Enter the street address.",
    });
    expect(messages({ ...home, country: "FR", postalCode: "75001", region: null })).toEqual({
      country: "We cannot post to this country yet.",
    });
    expect(messages({ ...home, country: "France" })).toEqual({ country: "Choose the country." });
  });

  test("a country without a known shape takes any plausible code; a region is only required where the post needs one", () => {
    expect(parse({ name: "D", line1: "1-1 Chiyoda", city: "Tokyo", postalCode: "100-0001", country: "JP" }).success).toBe(true);
    expect(messages({ name: "D", line1: "1-1 Chiyoda", city: "Tokyo", postalCode: "!", country: "JP" })).toEqual({
      postalCode: "Enter the postal code as the post writes it.",
    });
  });

  test("lines for a label leave out what is empty", () => {
    const result = parse(home);
    expect(result.success && addressLines(result.data)).toEqual(["Ada Lovelace", "12 Elm St", "Springfield IL 62704", "US"]);
  });
});
