import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertPostcard } from "~/models/postcard.server";
import { createUser, PASSWORD } from "../support/accounts";
import { chromiumPath, gotoHydrated, logInBrowser, newPage, PHONE } from "../support/browser";
import { useServerAndBrowser } from "../support/e2e-setup";
import { createTestEvent } from "../support/events";

// The postcard pages' template choices on a 375 px phone: one choice a line, each radio beside its words.

/** Each radio of the fieldset with this legend, its box and the box around the words after it. */
const choicesOf = (page: Page, legend: string) =>
  page.locator("fieldset", { has: page.locator("legend", { hasText: legend }) }).evaluate((fieldset) =>
    [...fieldset.querySelectorAll("label")].map((label) => {
      const input = label.querySelector("input")!;
      const range = document.createRange();
      range.setStartAfter(input);
      range.setEnd(label, label.childNodes.length);
      const words = range.getBoundingClientRect();
      const radio = input.getBoundingClientRect();
      return {
        radio: { top: radio.top, bottom: radio.bottom, right: radio.right },
        words: { top: words.top, bottom: words.bottom, left: words.left },
      };
    }),
  );

async function expectOneChoiceALine(page: Page, legend: string) {
  const choices = await choicesOf(page, legend);
  expect(choices.length).toBeGreaterThanOrEqual(3);
  choices.forEach(({ radio, words }, i) => {
    expect(radio.right, `choice ${i + 1}: its radio is before its words`).toBeLessThanOrEqual(words.left);
    expect(radio.bottom, `choice ${i + 1}: its radio is level with its words`).toBeGreaterThan(words.top);
    expect(radio.top).toBeLessThan(words.bottom);
    if (i > 0) expect(radio.top, `choice ${i + 1} starts below the one before`).toBeGreaterThanOrEqual(choices[i - 1]!.words.bottom);
  });
}

describe.skipIf(!chromiumPath)("the postcard template choices on a phone", () => {
  const e2e = useServerAndBrowser();

  test("on the list and on a card's design page, each template is on a line of its own, its radio beside its words", async () => {
    const organiser = await createUser();
    const event = await createTestEvent(organiser);
    const card = await insertPostcard(db(), {
      eventId: event.id,
      creatorId: organiser.id,
      templateId: "confetti",
      message: "",
      address: null,
      amount: 499,
      currency: "usd",
    });
    const page = await newPage(e2e.browser, e2e.server.url, { viewport: PHONE });
    await logInBrowser(page, organiser.email, PASSWORD);
    await gotoHydrated(page, `/e/${event.uuid}/postcards`);
    await expectOneChoiceALine(page, "Start a card");
    await gotoHydrated(page, `/e/${event.uuid}/postcards/${card.id}`);
    await expectOneChoiceALine(page, "Front");
    await page.context().close();
  });
});
