import crypto from "node:crypto";
import { localPostcardMailings, paymentEvents, postcards } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatDeliveryDay, postcardDeliveryDay } from "~/domain/delivery-estimate";
import { lobSignature } from "~/integrations/print-mail/lob-webhook";
import { db } from "~/lib/db.server";
import { fitMessage } from "~/services/postcards/postcard-art.server";
import { refreshStalePostcards, sendPostcard } from "~/services/postcards/sending.server";
import type { RunningServer } from "../../server";
import { loggedInUser, mailsTo } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { untilJobsFinished } from "../support/jobs";
import { postPaymentEvent } from "../support/payments";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// Printed postcards with the local print service (no LOB_API_KEY) and the local payment service: the
// draft and its checks, the true preview, checkout made real by the webhook, sending once, failing clearly.

const LOB_WEBHOOK_SECRET = "lob_webhook_test_secret";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", LOCAL_POSTCARD_STEP_SECONDS: "1", LOB_WEBHOOK_SECRET });
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

  test("refused on someone else's Chorus, it says that Chorus is not found: the API and the pages", async () => {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow" })).body.data.id;
    const stranger = (await loggedInUser(server.url)).client;

    const made = await stranger.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow" });
    expect(made.status).toBe(404);
    expect(made.body.error).toMatchObject({ code: "NOT_FOUND", message: "There is no Chorus with this id." });
    for (const path of [`/e/${event.uuid}/postcards`, `/e/${event.uuid}/postcards/${id}`]) {
      const page = await stranger.raw("GET", path);
      expect(page.status, path).toBe(404);
      expect(await page.text(), path).toContain("There is no Chorus with this id.");
    }
    const started = await stranger.form(`/e/${event.uuid}/postcards`, { templateId: "meadow" });
    expect(started.status).toBe(404);
    expect(await started.text()).toContain("There is no Chorus with this id.");
    // Its organiser asking for a card that is not there is told so.
    const missing = await client.raw("GET", `/e/${event.uuid}/postcards/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("There is no such postcard.");
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
    // Beside the payment's receipt, sent by a job of its own in either order.
    const mail = await until(async () => (await mailsTo(user.email)).find((m) => m.subject?.includes("refunded")) ?? null, {
      what: "the refund mail",
    });
    expect(mail?.subject).toBe("Your $4.99 for a printed postcard is refunded");
    expect(mail?.text).toContain("Your postcard could not be sent: The address cannot be posted to.");

    const admin = (await loggedInUser(server.url, "admin")).client;
    const staffPage = await (await admin.raw("GET", "/admin/postcards")).text();
    expect(staffPage).toContain("The address cannot be posted to.");
    expect((await client.raw("GET", "/admin/postcards")).status).not.toBe(200);
  });
});

describe("a card in the post", () => {
  /** A card paid for and taken by the local print service. */
  async function sentCard() {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow", address: ADDRESS })).body.data.id;
    await pay(client, id);
    const sent = await until(
      async () => {
        const card = await cardOf(id);
        return card.status === "sent" && card;
      },
      { timeout: 20_000, what: "the postcard to be sent" },
    );
    return { client, event, id, printId: sent.printId! };
  }

  test("its page and the list say the day the print service expects it, in business days from when it took it, and link where it is", async () => {
    const { client, event, id, printId } = await sentCard();
    // The local service's steps take a second here: dated an hour ahead, the card waits at its first one.
    const takenAt = new Date(Date.now() + 3600_000);
    await db().update(localPostcardMailings).set({ createdAt: takenAt }).where(eq(localPostcardMailings.id, printId));
    const day = postcardDeliveryDay(takenAt, "US");
    // Printed and posted First-Class: a week or more away, not today.
    expect(Date.parse(day) - Date.parse(new Date().toISOString().slice(0, 10))).toBeGreaterThanOrEqual(7 * 24 * 3600 * 1000);
    const tracking = `${server.url}/local-postcards/${printId}`;

    for (const path of [`/e/${event.uuid}/postcards/${id}`, `/e/${event.uuid}/postcards`]) {
      const page = await (await client.raw("GET", path)).text();
      expect(page, path).toContain(`With the print service, waiting to be printed. Expected by ${formatDeliveryDay(day)}.`);
      expect(page, path).toContain(`<a href="${tracking}">Track it</a>`);
    }
    expect((await client.get(`/api/v2/postcards/${id}`)).body.data).toMatchObject({ expectedDelivery: day, trackingUrl: tracking });

    // The service's page says where the card is and when it comes.
    const where = await (await new TestClient(server.url).raw("GET", `/local-postcards/${printId}`)).text();
    expect(where).toContain("Taken, waiting to be printed.");
    expect(where).toContain(`Expected by ${formatDeliveryDay(day)}.`);
  });

  test("the list shows each card as it now stands at the print service, as the card's own page does", async () => {
    const { client, event, id, printId } = await sentCard();
    const [mailing] = await db().select().from(localPostcardMailings).where(eq(localPostcardMailings.id, printId));
    // Delivered three steps (3 s) after the service took it; no one opens the card's page meanwhile.
    await until(async () => Date.now() - mailing!.createdAt.getTime() > 3500, { timeout: 10_000, what: "the card to be delivered" });

    const textOf = (html: string) =>
      html
        .replace(/<!-- -->/g, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ");
    const list = textOf(await (await client.raw("GET", `/e/${event.uuid}/postcards`)).text());
    expect(list).toContain("Ada Lovelace — Delivered.");
    const own = textOf(await (await client.raw("GET", `/e/${event.uuid}/postcards/${id}`)).text());
    expect(own).toContain(" Delivered. ");
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

describe("a checkout left unpaid", () => {
  test("its expiry unlocks the card, once; the page says so and Pay opens a new page; a late payment of the old one is honoured", async () => {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow", address: ADDRESS })).body.data.id;
    const first = await client.post(`/api/v2/postcards/${id}/checkout`, {});
    // Pressing Pay again while the page is open goes back to the same page.
    expect((await client.post(`/api/v2/postcards/${id}/checkout`, {})).body.data.url).toBe(first.body.data.url);
    const { checkoutSessionId } = await cardOf(id);
    const session = { id: checkoutSessionId, object: "checkout.session", status: "expired", payment_status: "unpaid" };
    const metadata = { kind: "postcard", postcardId: id, eventUuid: event.uuid };

    const expired = await postPaymentEvent(client, "checkout.session.expired", { ...session, metadata });
    expect(expired).toMatchObject({ status: 200, body: { data: { outcome: "applied" } } });
    expect(await cardOf(id)).toMatchObject({ status: "draft", checkoutAttempts: 1 });
    // Told twice, or once more under another id, it changes nothing more.
    expect((await postPaymentEvent(client, "checkout.session.expired", { ...session, metadata }, expired.id)).body.data?.outcome).toBe(
      "duplicate",
    );
    expect((await postPaymentEvent(client, "checkout.session.expired", { ...session, metadata })).body.data?.outcome).toBe("ignored");
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, expired.id))).toHaveLength(1);
    expect((await cardOf(id)).checkoutAttempts).toBe(1);

    const page = await (await client.raw("GET", `/e/${event.uuid}/postcards/${id}`)).text();
    expect(page).toContain("the payment page expired, so nothing was charged");
    expect(page).toContain("Pay $4.99 and post it");
    expect((await client.put(`/api/v2/postcards/${id}`, { message: "Changed after all" })).status).toBe(200);

    const second = await client.post(`/api/v2/postcards/${id}/checkout`, {});
    expect(second.status).toBe(200);
    expect(second.body.data.url).not.toBe(first.body.data.url);
    expect((await cardOf(id)).status).toBe("checkout");

    // The first page's payment comes in after all (events may come in any order): the card is sent.
    const late = await postPaymentEvent(client, "checkout.session.completed", {
      ...session,
      status: "complete",
      payment_status: "paid",
      payment_intent: `pi_late_${crypto.randomBytes(6).toString("hex")}`,
      amount_total: 499,
      currency: "usd",
      metadata,
    });
    expect(late.body.data?.outcome).toBe("applied");
    await until(async () => (await cardOf(id)).status === "sent", { timeout: 20_000, what: "the late-paid postcard to be sent" });
  });
});

/** A Lob webhook request: the event signed with `secret` at `timestamp` (now, by default). */
function lobRequest(event: Record<string, unknown>, { secret = LOB_WEBHOOK_SECRET, timestamp = String(Date.now()) } = {}) {
  const body = JSON.stringify(event);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "lob-signature": lobSignature(secret, timestamp, body),
      "lob-signature-timestamp": timestamp,
    },
  };
}

const lobEvent = (type: string, printId: string, id = `evt_${crypto.randomBytes(8).toString("hex")}`) => ({
  id,
  object: "event",
  event_type: { id: type, resource: "postcards", enabled_for_test: true, object: "event_type" },
  reference_id: printId,
  body: { id: printId, object: "postcard", expected_delivery_date: "2026-12-03" },
  date_created: new Date().toISOString(),
});

describe("Lob's webhooks", () => {
  /** A card as if Lob had taken it, under a print id of Lob's shape. */
  async function cardWithLob() {
    const { user, client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "meadow", address: ADDRESS })).body.data.id;
    const printId = `psc_${crypto.randomBytes(12).toString("hex")}`;
    await db()
      .update(postcards)
      .set({ status: "sent", printProvider: "lob", printId, mailingStatus: "created" })
      .where(eq(postcards.id, id));
    return { user, client, id, printId };
  }

  const post = (request: { body: string; headers: Record<string, string> }) =>
    new TestClient(server.url).raw("POST", "/lob/webhook", request);

  test("a signed event moves the card on and tells the organiser once it is delivered; a repeat or an older event changes nothing", async () => {
    const { user, id, printId } = await cardWithLob();
    const transit = await post(lobRequest(lobEvent("postcard.in_transit", printId)));
    expect(transit.status).toBe(200);
    expect((await transit.json()).data.outcome).toBe("applied");
    expect(await cardOf(id)).toMatchObject({ mailingStatus: "mailed", expectedDelivery: "2026-12-03" });

    const delivered = lobEvent("postcard.delivered", printId);
    expect((await (await post(lobRequest(delivered))).json()).data.outcome).toBe("applied");
    // Lob sends it again (same id, signed anew): taken once.
    expect((await (await post(lobRequest(delivered))).json()).data.outcome).toBe("duplicate");
    // An earlier step arriving late does not move the card back.
    expect((await (await post(lobRequest(lobEvent("postcard.in_transit", printId)))).json()).data.outcome).toBe("ignored");
    expect((await cardOf(id)).mailingStatus).toBe("delivered");

    const mail = await until(async () => (await mailsTo(user.email)).find((m) => m.subject === "Your postcard was delivered") ?? null, {
      what: "the delivered mail",
    });
    expect(mail?.subject).toBe("Your postcard was delivered");
  });

  test("unsigned, wrongly signed, stale and malformed events are refused and change nothing", async () => {
    const { id, printId } = await cardWithLob();
    const event = lobEvent("postcard.returned_to_sender", printId);
    const signed = lobRequest(event);
    const unsigned = await post({ body: signed.body, headers: { "content-type": "application/json" } });
    expect(unsigned.status).toBe(400);
    expect((await unsigned.json()).error.code).toBe("INVALID_SIGNATURE");
    const forged = await post(lobRequest(event, { secret: "not-the-secret" }));
    expect((await forged.json()).error.code).toBe("INVALID_SIGNATURE");
    // The body changed after signing.
    const tampered = await post({ ...signed, body: signed.body.replace("returned_to_sender", "delivered") });
    expect(tampered.status).toBe(400);
    const stale = await post(lobRequest(event, { timestamp: String(Date.now() - 10 * 60 * 1000) }));
    expect(stale.status).toBe(400);
    expect((await stale.json()).error.code).toBe("STALE_SIGNATURE");
    const notAnEvent = await post(lobRequest({ hello: "world" }));
    expect((await notAnEvent.json()).error.code).toBe("INVALID_EVENT");
    expect((await cardOf(id)).mailingStatus).toBe("created");

    // The same event, properly signed, is then taken: the refusals did not use up its id.
    const returned = await post(lobRequest(event));
    expect((await returned.json()).data.outcome).toBe("applied");
    expect((await cardOf(id)).mailingStatus).toBe("returned");
  });

  test("the sweep asks about cards in the post that nothing was heard of for hours", async () => {
    const { client, event } = await organiser();
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "confetti", address: ADDRESS })).body.data.id;
    await pay(client, id);
    await until(async () => (await cardOf(id)).status === "sent", { timeout: 20_000, what: "the postcard to be sent" });
    // As if no webhook had come for a day, while the print service moved it on.
    await db()
      .update(postcards)
      .set({ mailingStatus: "created", updatedAt: new Date(Date.now() - 24 * 3600 * 1000) })
      .where(eq(postcards.id, id));
    await until(async () => (await refreshStalePostcards()) >= 0 && (await cardOf(id)).mailingStatus !== "created", {
      timeout: 20_000,
      what: "the sweep to see the card move on",
    });
    // A card heard of recently (the sweep's own news counts) is left alone.
    await db().update(postcards).set({ mailingStatus: "printed" }).where(eq(postcards.id, id));
    await refreshStalePostcards();
    expect((await cardOf(id)).mailingStatus).toBe("printed");
  });
});
