// Pages keep their errors (docs/decisions/055): a page whose loader refuses answers with the
// refusal's status and the page's own words, inside the app shell (header, main navigation, footer),
// with a way back, rendered by the server so it reads the same without JavaScript.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The page's text with React's escapes and text separators undone, so assertions read like the page. */
async function pageOf(response: Response) {
  return (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/** What an error page says in its main part: its heading, its sentence, and where its button leads. */
function errorCard(page: string) {
  const main = page.match(/<main id="main">([\s\S]*?)<\/main>/)?.[1] ?? "";
  const text = (html: string | undefined) => (html ?? "").replace(/<[^>]+>/g, "").trim();
  return {
    title: text(main.match(/<h1>([\s\S]*?)<\/h1>/)?.[1]),
    text: text(main.match(/<p>([\s\S]*?)<\/p>/)?.[1]),
    back: main.match(/<a [^>]*class="button"[^>]*>/)?.[0].match(/href="([^"]*)"/)?.[1],
  };
}

/** The shell around the page: its header with the main navigation, and its footer. */
function expectShell(page: string) {
  expect(page).toContain('<header class="site-header">');
  expect(page).toContain('aria-label="Main"');
  expect(page).toContain('<footer class="site-footer">');
}

describe("a page whose loader refuses keeps the shell and says why in its own words", () => {
  test("a Chorus that does not exist: 404, the event page's words", async () => {
    const response = await new TestClient(server.url).raw("GET", `/e/${crypto.randomUUID()}`);
    expect(response.status).toBe(404);
    const page = await pageOf(response);
    expectShell(page);
    expect(errorCard(page)).toEqual({
      title: "We couldn't find this Chorus",
      text: "The link may be incomplete, or the organiser may have removed it. Ask them for a fresh link.",
      back: "/start-a-chorus",
    });
  });

  test("another account's Chorus on the arrange page: 403, the arrange page's words", async () => {
    const { user: organiser } = await loggedInUser(server.url);
    const event = await createTestEvent(organiser);
    const { client: stranger } = await loggedInUser(server.url);
    const response = await stranger.raw("GET", `/e/${event.uuid}/arrange`);
    expect(response.status).toBe(403);
    const page = await pageOf(response);
    expectShell(page);
    expect(errorCard(page)).toEqual({
      title: "You can't open this page",
      text: "Only the organiser of a Chorus makes its video. Log in with that account, or ask the organiser for a fresh link.",
      back: "/dashboard",
    });
  });

  test("another account's Chorus at checkout: 403, the checkout's words", async () => {
    const { user: organiser } = await loggedInUser(server.url);
    const event = await createTestEvent(organiser);
    const { client: stranger } = await loggedInUser(server.url);
    const response = await stranger.raw("GET", `/e/${event.uuid}/checkout`);
    expect(response.status).toBe(403);
    const page = await pageOf(response);
    expectShell(page);
    expect(errorCard(page)).toEqual({
      title: "We couldn't open this checkout",
      text: "Only the organiser of a Chorus can pay for it. Log in with their account and try again.",
      back: "/dashboard",
    });
  });

  test("an administrators' page seen by an editor: 403, for administrators only", async () => {
    const { client: editor } = await loggedInUser(server.url, "editor");
    const response = await editor.raw("GET", "/admin/audit");
    expect(response.status).toBe(403);
    const page = await pageOf(response);
    expectShell(page);
    expect(errorCard(page)).toMatchObject({ title: "For administrators only", back: "/" });
  });

  test("a staff page seen by someone who is not staff: 404, the general words, nothing about staff", async () => {
    const { client } = await loggedInUser(server.url);
    const response = await client.raw("GET", "/admin/audit");
    expect(response.status).toBe(404);
    const page = await pageOf(response);
    expectShell(page);
    expect(errorCard(page)).toEqual({ title: "We couldn't find that page", text: "The link may be old or mistyped.", back: "/" });
  });
});
