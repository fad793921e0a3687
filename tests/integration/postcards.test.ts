import { localPostcardMailings, postcards } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { fitMessage } from "~/services/postcards/postcard-art.server";
import { sendPostcard } from "~/services/postcards/sending.server";
import type { RunningServer } from "../../server";
import { lastMailTo, loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { untilJobsFinished } from "../support/jobs";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// Printed postcards with the local print service (no LOB_API_KEY) and the local payment service: the
// draft and its checks, the true preview, checkout made real by the webhook, sending once, failing clearly.

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", LOCAL_POSTCARD_STEP_SECONDS: "1" });
});
afterAll(() => server.close());

const ADDRESS = { name: "Ada Lovelace", line1: "350 Fifth Avenue", city: "New York", region: "ny", postalCode: "10118", country: "us" };

async function organiser() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  return { user, client, event };
}

const cardOf = async (id: string) => (await db().select().from(postcards).where(eq(postcards.id, id)))[0]!;

async function pay(client: TestClient, id: string) {
  const checkout = await client.post(`/api/v2/postcards/${id}/checkout`);
  expect(checkout.status).toBe(200);
  const page = new URL(checkout.body.data.url);
  expect(page.pathname).toMatch(/^\/local-payments\/checkout\//);
  const paid = await client.form(page.pathname, { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" });
  expect(paid.status).toBe(302);
}

describe("a postcard draft", () => {
  test("is made and changed by the organiser; its address is normalised", async () => {
    const { client, event } = await organiser();
    const made = await client.post("/api/v2/postcards", { eventId: event.id, templateId: "confetti", message: "Happy birthday!" });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      status: "draft",
      editable: true,
      templateId: "confetti",
      address: null,
      amount: 499,
      currency: "usd",
    });

    const changed = await client.put(`/api/v2/postcards/${made.body.data.id}`, { templateId: "evening", address: ADDRESS });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      templateId: "evening",
      message: "Happy birthday!",
      address: { region: "NY", country: "US" },
    });
    expect((await client.get(`/api/v2/postcards/${made.body.data.id}`)).body.data.addressLines).toEqual([
      "Ada Lovelace",
      "350 Fifth Avenue",
      "New York NY 10118",
      "US",
    ]);
  });

  test("bad addresses, unserved countries, unknown templates and messages too long for the card are 400s naming the field", async () => {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow" })).body.data.id;
    const cases: [Record<string, unknown>, string][] = [
      [{ address: { ...ADDRESS, postalCode: "1011" } }, "address.postalCode"],
      [{ address: { ...ADDRESS, region: "" } }, "address.region"],
      [{ address: { ...ADDRESS, country: "JP", region: "", postalCode: "100-0001" } }, "address.country"],
      [{ templateId: "no-such-template" }, "templateId"],
      [{ message: "Many happy returns. ".repeat(40) }, "message"],
    ];
    for (const [body, field] of cases) {
      const reply = await client.put(`/api/v2/postcards/${id}`, body);
      expect(reply.status, field).toBe(400);
      expect(reply.body).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED", fields: { [field]: expect.any(String) } } });
    }
    const tooLong = await client.put(`/api/v2/postcards/${id}`, { message: "Many happy returns. ".repeat(40) });
    const fitting = fitMessage("Many happy returns. ".repeat(40));
    expect(fitting.fits).toBe(false);
    expect(tooLong.body.error.fields.message).toContain(`about the first ${fitting.fits ? 0 : fitting.fittingCharacters} of its`);
    // A message that does fit is taken, and a POST with a bad field is a 400 too.
    expect((await client.put(`/api/v2/postcards/${id}`, { message: "Many happy returns. ".repeat(8) })).status).toBe(200);
    expect((await client.post("/api/v2/postcards", { eventId: event.id, templateId: "" })).status).toBe(400);
  });

  test("is a 404 for anyone who does not manage its Chorus", async () => {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow" })).body.data.id;
    const stranger = (await loggedInUser(server.url)).client;
    const anonymous = new TestClient(server.url);
    for (const someone of [stranger, anonymous]) {
      expect((await someone.get(`/api/v2/postcards/${id}`)).status).toBe(404);
      expect((await someone.put(`/api/v2/postcards/${id}`, { message: "Mine now" })).status).toBe(404);
      expect((await someone.post(`/api/v2/postcards/${id}/checkout`)).status).toBe(404);
      expect((await someone.raw("GET", `/postcards/${id}/preview/back.svg`)).status).toBe(404);
    }
    expect((await stranger.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow" })).status).toBe(404);
    expect((await client.get("/api/v2/postcards/not-a-uuid")).status).toBe(404);
  });

  test("templates are served one by one; an unknown one is a 404", async () => {
    const client = new TestClient(server.url);
    expect((await client.get("/api/v2/postcards/templates/poster")).body.data).toMatchObject({ id: "poster", kind: "poster", size: "4x6" });
    expect((await client.get("/api/v2/postcards/templates/nope")).status).toBe(404);
  });
});

describe("the true preview", () => {
  test("shows both sides as images and a two-page print-size PDF proof with the address where the post prints it", async () => {
    const { client, event } = await organiser();
    const id = (
      await client.post("/api/v2/postcards", { eventId: event.id, templateId: "confetti", message: "See you soon", address: ADDRESS })
    ).body.data.id;
    for (const side of ["front", "back"]) {
      const image = await client.raw("GET", `/postcards/${id}/preview/${side}.svg`);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/svg+xml");
      expect(await image.text()).toMatch(/^<svg [^>]*viewBox="0 0 450 306"/);
    }
    const proof = await client.raw("GET", `/postcards/${id}/proof.pdf`);
    expect(proof.status).toBe(200);
    const pdf = Buffer.from(await proof.arrayBuffer()).toString("latin1");
    expect(pdf.startsWith("%PDF-")).toBe(true);
    expect(pdf.match(/\/Type \/Page\b/g)).toHaveLength(2);
    expect(pdf).toContain("/MediaBox [0 0 450 306]");

    const page = await (await client.raw("GET", `/e/${event.uuid}/postcards/${id}`)).text();
    expect(page).toContain(`src="/postcards/${id}/preview/front.svg"`);
    expect(page).toContain("Pay $4.99 and post it");
  });
});

describe("checkout and sending", () => {
  test("the webhook marks it paid and the print service takes it once; it is then locked and moves on to delivered", async () => {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow", message: "With love", address: ADDRESS }))
      .body.data.id;
    expect((await client.post(`/api/v2/postcards/${id}/checkout`, {})).status).toBe(200);
    // Locked as soon as checkout starts: what is paid for is what is printed.
    const refused = await client.put(`/api/v2/postcards/${id}`, { message: "Changed" });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "POSTCARD_LOCKED", message: expect.stringContaining("can no longer be changed") });

    await pay(client, id);
    const sent = await until(
      async () => {
        const card = await cardOf(id);
        return card.status === "sent" && card;
      },
      { timeout: 20_000, what: "the postcard to be sent" },
    );
    expect(sent).toMatchObject({ printProvider: "local", printId: expect.stringMatching(/^lpc_/), paymentIntentId: expect.any(String) });
    await untilJobsFinished("postcard-send", { singletonKey: `postcard-send:${id}` });

    // The print files the service was given are the card, behind a signed link.
    const local = await client.raw("GET", `/local-postcards/${sent.printId}`);
    expect(local.status).toBe(200);
    const front = /href="([^"]*\/print\/front\.pdf[^"]*)"/.exec(await local.text())?.[1]?.replace(/&amp;/g, "&");
    expect(front).toBeTruthy();
    const file = await new TestClient(server.url).raw("GET", new URL(front!).pathname + new URL(front!).search);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect((await new TestClient(server.url).raw("GET", `/postcards/${id}/print/front.pdf?exp=9999999999&sig=forged`)).status).toBe(404);

    const delivered = await until(
      async () => {
        const reply = await client.get(`/api/v2/postcards/${id}`);
        return reply.body.data.mailingStatus === "delivered" && reply.body.data;
      },
      { timeout: 20_000, what: "the local print service to deliver the card" },
    );
    expect(delivered).toMatchObject({ status: "sent", editable: false });
    expect((await client.put(`/api/v2/postcards/${id}`, { message: "Changed" })).status).toBe(409);
  });

  test("a card the print service cannot take ends failed, refunded and the organiser told, and staff see it", async () => {
    const { user, client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "evening", address: ADDRESS })).body.data.id;
    // As if the served countries changed between checkout and printing.
    await db()
      .update(postcards)
      .set({ address: { ...(await cardOf(id)).address!, country: "JP" } })
      .where(eq(postcards.id, id));
    await pay(client, id);

    const refunded = await until(
      async () => {
        const card = await cardOf(id);
        return card.status === "refunded" && card;
      },
      { timeout: 20_000, what: "the postcard to be refunded" },
    );
    expect(refunded.failure).toBe("The address cannot be posted to.");
    const mail = await until(() => lastMailTo(user.email).then((m) => (m?.subject?.includes("postcard") ? m : null)), {
      what: "the refund mail",
    });
    expect(mail?.subject).toBe("Your postcard could not be sent; $4.99 is refunded");

    const admin = (await loggedInUser(server.url, "admin")).client;
    const staffPage = await (await admin.raw("GET", "/admin/postcards")).text();
    expect(staffPage).toContain("The address cannot be posted to.");
    expect((await client.raw("GET", "/admin/postcards")).status).not.toBe(200);
  });
});

describe("sending exactly once", () => {
  test("a worker that died after the print service took the card finds the same mailing on the retry", async () => {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "confetti", address: ADDRESS })).body.data.id;
    await pay(client, id);
    const first = await until(
      async () => {
        const card = await cardOf(id);
        return card.status === "sent" && card;
      },
      { timeout: 20_000, what: "the postcard to be sent" },
    );
    // As if the worker had died between the print service's answer and saving it.
    await db().update(postcards).set({ status: "paid", printId: null }).where(eq(postcards.id, id));
    await Promise.all([sendPostcard(id, { finalAttempt: false }), sendPostcard(id, { finalAttempt: false })]);

    expect((await cardOf(id)).printId).toBe(first.printId);
    expect(await db().select().from(localPostcardMailings).where(eq(localPostcardMailings.idempotencyKey, id))).toHaveLength(1);
  });
});
