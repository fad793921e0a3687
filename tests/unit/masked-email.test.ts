import { describe, expect, test } from "vitest";
import { maskedEmail } from "~/domain/masked-email";

describe("an e-mail address shown to someone else", () => {
  test("keeps the first letter of the name and of the domain, and the domain's last part", () => {
    expect(maskedEmail("payer@example.test")).toBe("p•••@e•••.test");
    expect(maskedEmail("ada.lovelace@mail.example.co.uk")).toBe("a•••@m•••.uk");
  });

  test("hides whole what is no address", () => {
    for (const text of ["", "payer", "@example.test", "payer@", "payer@localhost"]) expect(maskedEmail(text)).toBe("•••");
  });
});
