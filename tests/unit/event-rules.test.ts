import { describe, expect, test } from "vitest";
import { PROTECTED_EVENT_FIELDS, stripProtectedEventFields } from "~/domain/event-fields";
import { formatRecipientNames, NO_RECIPIENT_TEXT, occasionTitle, possessive } from "~/domain/recipient-names";
import { deriveViewerRole, type RoleInputs } from "~/domain/viewer-role";

describe("recipient names (spec §3)", () => {
  test("one name", () => expect(formatRecipientNames([{ firstName: "Ana", lastName: "Silva" }])).toBe("Ana Silva"));
  test("two names joined with and", () => expect(formatRecipientNames([{ firstName: "Ana" }, { firstName: "Bo" }])).toBe("Ana and Bo"));
  test("three or more with commas and a final and", () => {
    expect(formatRecipientNames([{ firstName: "Ana" }, { firstName: "Bo" }, { firstName: "Cy" }])).toBe("Ana, Bo and Cy");
    expect(formatRecipientNames(["A", "B", "C", "D"].map((firstName) => ({ firstName })))).toBe("A, B, C and D");
  });
  test("first names only when asked", () => {
    expect(
      formatRecipientNames(
        [
          { firstName: "Ana", lastName: "Silva" },
          { firstName: "Bo", lastName: "Li" },
        ],
        { firstNamesOnly: true },
      ),
    ).toBe("Ana and Bo");
  });
  test("blank names are skipped; no name at all is someone special", () => {
    expect(formatRecipientNames([])).toBe("someone special");
    expect(formatRecipientNames([{ firstName: "  " }])).toBe(NO_RECIPIENT_TEXT);
    expect(formatRecipientNames([{ firstName: "" }, { firstName: "Bo" }])).toBe("Bo");
  });
  test("possessive: names ending in s take an apostrophe only", () => {
    expect(possessive("James")).toBe("James'");
    expect(possessive("CHRIS")).toBe("CHRIS'");
    expect(possessive("Ana")).toBe("Ana's");
    expect(possessive("Ana and Bo")).toBe("Ana and Bo's");
  });
  test("occasion titles read naturally", () => {
    expect(occasionTitle([{ firstName: "Ana" }, { firstName: "Bo" }], "birthday")).toBe("Ana and Bo's birthday");
    expect(occasionTitle([{ firstName: "Marcus" }], "retirement")).toBe("Marcus' retirement");
    expect(occasionTitle([], "birthday")).toBe("someone special's birthday");
  });
});

describe("viewer role, in the order of spec §4", () => {
  const creator = { id: "c", role: "user" as const };
  const admin = { id: "a", role: "admin" as const };
  const other = { id: "o", role: "user" as const };
  const inputs = (over: Partial<RoleInputs>): RoleInputs => ({
    event: { status: "active", creatorId: "c" },
    user: null,
    hasPrivateKey: false,
    hasViewKey: false,
    ...over,
  });

  test("1. the creator of an active event is creator, even holding the private key", () => {
    expect(deriveViewerRole(inputs({ user: creator, hasPrivateKey: true }))).toBe("creator");
  });
  test("2. the private key makes a recipient — for anyone once the event is not active", () => {
    expect(deriveViewerRole(inputs({ hasPrivateKey: true }))).toBe("recipient");
    expect(deriveViewerRole(inputs({ user: other, hasPrivateKey: true }))).toBe("recipient");
    expect(deriveViewerRole(inputs({ user: creator, hasPrivateKey: true, event: { status: "delivered", creatorId: "c" } }))).toBe(
      "recipient",
    );
    expect(deriveViewerRole(inputs({ user: admin, hasPrivateKey: true }))).toBe("recipient");
  });
  test("3. the creator of an inactive event, or an admin, is creator", () => {
    expect(deriveViewerRole(inputs({ user: creator, event: { status: "delivered", creatorId: "c" } }))).toBe("creator");
    expect(deriveViewerRole(inputs({ user: admin }))).toBe("creator");
    expect(deriveViewerRole(inputs({ user: admin, hasViewKey: true }))).toBe("creator");
  });
  test("4. the view key makes view-only", () => {
    expect(deriveViewerRole(inputs({ hasViewKey: true }))).toBe("view-only");
    expect(deriveViewerRole(inputs({ user: other, hasViewKey: true }))).toBe("view-only");
  });
  test("5. everyone else is public — editors included", () => {
    expect(deriveViewerRole(inputs({}))).toBe("public");
    expect(deriveViewerRole(inputs({ user: other }))).toBe("public");
    expect(deriveViewerRole(inputs({ user: { id: "e", role: "editor" } }))).toBe("public");
  });
});

describe("protected event fields (spec §3)", () => {
  test("every protected field is removed and the rest kept", () => {
    const payload = Object.fromEntries(PROTECTED_EVENT_FIELDS.map((f) => [f, "x"]));
    const stripped = stripProtectedEventFields({ ...payload, title: "Hi", deadline: "2027-01-01" });
    expect(stripped).toEqual({ title: "Hi", deadline: "2027-01-01" });
  });
  test("the list is exactly the spec's", () => {
    expect([...PROTECTED_EVENT_FIELDS].sort()).toEqual(
      ["id", "uuid", "eventId", "privateKey", "publishedMedia", "recipients", "paid", "contributorsNotified", "viaEmail", "viaSms"].sort(),
    );
  });
  test("the input is not changed", () => {
    const payload = { id: "1", title: "Hi" };
    stripProtectedEventFields(payload);
    expect(payload).toEqual({ id: "1", title: "Hi" });
  });
});
