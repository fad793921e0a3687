import { events, recipients } from "drizzle/schema";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import type { RunningServer } from "../../server";
import { PASSWORD, createUser, loggedInUser } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const at = (step: string) => `/start-a-chorus?step=${step}`;
const daysAhead = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/** The page's text with React's attribute escapes undone, so assertions read like the page. */
async function pageOf(response: Response) {
  return (await response.text()).replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/** The `<input>` tag for a field (and, for radios and checkboxes, a value), whatever its attribute order. */
function inputTag(page: string, name: string, value?: string) {
  const tag = (page.match(/<input[^>]*>/g) ?? []).find(
    (t) => t.includes(`name="${name}"`) && (value === undefined || t.includes(`value="${value}"`)),
  );
  expect(tag, `input ${name}=${value}`).toBeTruthy();
  return tag!;
}

const loggedInClient = () => loggedInUser(server.url);

async function expectNext(response: Response, step: string) {
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe(at(step));
}

const DETAILS = {
  deadlineDate: daysAhead(10),
  deadlineTime: "18:30",
  timeZone: "Europe/Paris",
  title: "",
  message: "Record a short clip for Ana!",
  "prompts.0": "What's your favourite memory?",
  "prompts.1": "",
  "prompts.2": "What do you wish Ana for the year?",
};

async function fillSteps(client: TestClient, occasion: Record<string, string> = { occasion: "birthday", guestbook: "on" }) {
  await expectNext(await client.form(at("occasion"), { ...occasion, intent: "next" }), "recipients");
  await expectNext(
    await client.form(at("recipients"), {
      "recipients.0.firstName": "Ana",
      "recipients.0.lastName": "Silva",
      "recipients.1.firstName": "",
      "recipients.1.lastName": "",
      "recipients.2.firstName": "Bo",
      "recipients.2.lastName": "",
    }),
    "details",
  );
  await expectNext(await client.form(at("details"), DETAILS), "review");
}

async function storedEvent(location: string | null) {
  const uuid = /^\/e\/([0-9a-f-]{36})\?gtm_event_start_chorus=1$/.exec(location ?? "")?.[1];
  expect(uuid, `redirected to ${location}`).toBeTruthy();
  const [event] = await db().select().from(events).where(eq(events.uuid, uuid!));
  const people = await db().select().from(recipients).where(eq(recipients.eventId, event!.id)).orderBy(asc(recipients.position));
  return { event: event!, people: people.map((p) => [p.firstName, p.lastName]) };
}

describe("starting a Chorus without JavaScript", () => {
  test("a logged-in organiser goes through the four steps and lands on the new event", async () => {
    const { client, user } = await loggedInClient();
    const first = await pageOf(await client.raw("GET", "/start-a-chorus"));
    expect(first).toContain("Start a New Chorus");
    expect(first).toContain("Step 1 of 4");
    expect(first).toMatch(/aria-current="step"[^>]*>.*?Occasion/s);

    await fillSteps(client);
    const review = await pageOf(await client.raw("GET", at("review")));
    expect(review).toContain("Ana and Bo's birthday");
    expect(review).toContain("Birthday Guestbook");
    expect(review).toContain("What do you wish Ana for the year?");
    expect(review).toContain("Start my Chorus");

    const created = await client.form(at("review"), { intent: "create" }, { cookie: `${client.cookieHeader()}; _ga=GA1.1.123.456` });
    expect(created.status).toBe(302);
    const { event, people } = await storedEvent(created.headers.get("location"));
    expect(event).toMatchObject({
      creatorId: user.id,
      occasion: "birthday",
      occasionOther: null,
      guestbook: true,
      timeZone: "Europe/Paris",
      message: "Record a short clip for Ana!",
      prompts: ["What's your favourite memory?", "What do you wish Ana for the year?"],
      analyticsClientId: "123.456",
    });
    expect(event.deadline.toLocaleString("sv-SE", { timeZone: "Europe/Paris" })).toBe(`${DETAILS.deadlineDate} 18:30:00`);
    expect(people).toEqual([
      ["Ana", "Silva"],
      ["Bo", ""],
    ]);
    expect(client.hasCookie("__start_draft")).toBe(false);
  });

  test("a marketing link's occasion is preselected", async () => {
    const page = await pageOf(await new TestClient(server.url).raw("GET", "/start-a-chorus?occasion=graduation"));
    expect(inputTag(page, "occasion", "graduation")).toContain('checked=""');
  });

  test("Back keeps what was typed, and Edit links lead to each step", async () => {
    const client = new TestClient(server.url);
    await expectNext(await client.form(at("occasion"), { occasion: "wedding-guestbook" }), "recipients");
    await expectNext(
      await client.form(at("recipients"), { "recipients.0.firstName": "Cy", "recipients.0.lastName": "Doe", intent: "back" }),
      "occasion",
    );

    const occasion = await pageOf(await client.raw("GET", at("occasion")));
    expect(inputTag(occasion, "guestbook", "on")).toContain('checked=""');
    expect(inputTag(occasion, "occasion", "wedding-guestbook")).toContain('checked=""');
    const people = await pageOf(await client.raw("GET", at("recipients")));
    expect(people).toContain('value="Cy"');
    expect(people).toContain('value="Doe"');

    const review = await pageOf(await client.raw("GET", at("review")));
    for (const step of ["occasion", "recipients", "details"]) expect(review).toContain(`href="${at(step)}"`);
  });

  test("without JavaScript, people are added and removed by the server", async () => {
    const client = new TestClient(server.url);
    const added = await client.form(at("recipients"), { "recipients.0.firstName": "Ana", intent: "add-recipient" });
    expect(added.headers.get("location")).toBe(`${at("recipients")}#add-recipient`);
    const two = await pageOf(await client.raw("GET", at("recipients")));
    expect(two).toContain('name="recipients.1.firstName"');
    expect(two).toContain('value="remove-recipient:1"');

    await client.form(at("recipients"), {
      "recipients.0.firstName": "Ana",
      "recipients.1.firstName": "Bo",
      intent: "remove-recipient:0",
    });
    const one = await pageOf(await client.raw("GET", at("recipients")));
    expect(one).toContain('value="Bo"');
    expect(one).not.toContain('value="Ana"');
    expect(one).not.toContain('name="recipients.1.firstName"');
  });
});

describe("each step checks its own answers", () => {
  test("no occasion chosen", async () => {
    const reply = await new TestClient(server.url).form(at("occasion"), { guestbook: "on", occasionOther: "Promotion party" });
    expect(reply.status).toBe(400);
    const page = await pageOf(reply);
    expect(page).toContain("Choose an occasion.");
    expect(page).toContain('value="Promotion party"');
    expect(inputTag(page, "guestbook", "on")).toContain('checked=""');
  });

  test("a custom occasion needs a label", async () => {
    const reply = await new TestClient(server.url).form(at("occasion"), { occasion: "other", occasionOther: "  " });
    expect(reply.status).toBe(400);
    const page = await pageOf(reply);
    expect(page).toContain("Say what the occasion is.");
    expect(inputTag(page, "occasion", "other")).toContain('checked=""');
  });

  test("an occasion the web app does not offer is refused", async () => {
    const reply = await new TestClient(server.url).form(at("occasion"), { occasion: "school" });
    expect(reply.status).toBe(400);
    expect(await pageOf(reply)).toContain("Choose an occasion from the list.");
  });

  test("a person needs a first name, and at least one person is needed", async () => {
    const client = new TestClient(server.url);
    const missingFirst = await client.form(at("recipients"), {
      "recipients.0.firstName": "",
      "recipients.0.lastName": "Silva",
      "recipients.1.firstName": "Bo",
      "recipients.1.lastName": "",
    });
    expect(missingFirst.status).toBe(400);
    const page = await pageOf(missingFirst);
    expect(page).toContain("Enter a first name.");
    expect(page).toMatch(/id="recipients\.0\.firstName" name="recipients\.0\.firstName"[^>]*aria-invalid="true"/);
    expect(page).toContain('value="Silva"');
    expect(page).toContain('value="Bo"');

    const nobody = await client.form(at("recipients"), { "recipients.0.firstName": " ", "recipients.0.lastName": "" });
    expect(nobody.status).toBe(400);
    expect(await pageOf(nobody)).toContain("Add who the Chorus is for.");
  });

  test("the deadline must be ahead", async () => {
    const reply = await new TestClient(server.url).form(at("details"), { ...DETAILS, deadlineDate: "2020-01-01" });
    expect(reply.status).toBe(400);
    const page = await pageOf(reply);
    expect(page).toContain("The deadline must be in the future.");
    expect(page).toContain(">Record a short clip for Ana!</textarea>");
    expect(page).toContain(">What do you wish Ana for the year?</textarea>");
  });

  test("at most ten questions", async () => {
    const prompts = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`prompts.${i}`, `Question number ${i + 1}?`]));
    const reply = await new TestClient(server.url).form(at("details"), { ...DETAILS, ...prompts });
    expect(reply.status).toBe(400);
    const page = await pageOf(reply);
    expect(page).toContain("Ask at most 10 questions.");
    expect(page).toContain(">Question number 11?</textarea>");
  });

  test("a question of 301 characters is too long", async () => {
    const reply = await new TestClient(server.url).form(at("details"), { ...DETAILS, "prompts.1": "a".repeat(301) });
    expect(reply.status).toBe(400);
    const page = await pageOf(reply);
    expect(page).toContain("Keep each question under 300 characters.");
    expect(page).toMatch(/id="prompts\.1" name="prompts\.1"[^>]*aria-invalid="true"/);
    expect(page).toContain(">What's your favourite memory?</textarea>");
  });

  test("the longest allowed draft is kept whole: a 2,000-character message and ten full questions", async () => {
    const client = new TestClient(server.url);
    const prompts = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`prompts.${i}`, `${i}`.repeat(300)]));
    const reply = await client.form(at("details"), { ...DETAILS, message: "m".repeat(2000), ...prompts });
    expect(reply.status).toBe(302);
    const page = await pageOf(await client.raw("GET", at("details")));
    expect(page).toContain(`>${"9".repeat(300)}</textarea>`);
    expect(page).toContain("m".repeat(2000));
  });

  test("a final submit with steps left undone sends the organiser to the first one", async () => {
    const { client } = await loggedInClient();
    const reply = await client.form(at("review"), { intent: "create" });
    expect(reply.status).toBe(302);
    expect(reply.headers.get("location")).toBe(at("occasion"));
    const page = await pageOf(await client.raw("GET", at("occasion")));
    expect(page).toContain("Choose an occasion.");
  });
});

describe("a logged-out organiser", () => {
  test("fills every step, logs in, and finds the draft intact", async () => {
    const client = new TestClient(server.url);
    await fillSteps(client, { occasion: "other", occasionOther: "Promotion party" });

    const review = await pageOf(await client.raw("GET", at("review")));
    expect(review).toContain("Promotion party");
    expect(review).toContain(`href="/auth/login?redirectTo=${encodeURIComponent(at("review"))}"`);
    expect(review).toContain(`href="/auth/register?redirectTo=${encodeURIComponent(at("review"))}"`);
    expect(review).not.toContain("Start my Chorus");

    const early = await client.form(at("review"), { intent: "create" });
    expect(early.status).toBe(302);
    expect(early.headers.get("location")).toBe(`/auth/login?redirectTo=${encodeURIComponent(at("review"))}`);

    const user = await createUser();
    const login = await client.form("/auth/login", { email: user.email, password: PASSWORD, redirectTo: at("review") });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe(`${at("review")}&gtm_event_login=1`);

    const back = await pageOf(await client.raw("GET", at("review")));
    expect(back).toContain("Promotion party");
    expect(back).toContain("Ana and Bo's Promotion party");
    expect(back).toContain("Start my Chorus");

    const created = await client.form(at("review"), { intent: "create" });
    const { event, people } = await storedEvent(created.headers.get("location"));
    expect(event).toMatchObject({
      creatorId: user.id,
      occasion: "other",
      occasionOther: "Promotion party",
      guestbook: false,
      analyticsClientId: null,
    });
    expect(people).toEqual([
      ["Ana", "Silva"],
      ["Bo", ""],
    ]);
  });
});
