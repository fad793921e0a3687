import crypto from "node:crypto";
import { invoices, paymentEvents, payments, postcards, receipts, treeContributions } from "drizzle/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertRecipient } from "~/models/event.server";
import { listLocalPaymentObjects } from "~/models/local-payment.server";
import { publishVersion } from "~/models/published-media.server";
import { findUserById } from "~/models/user.server";
import { paymentsProvider } from "~/services/payments/provider.server";
import type { RunningServer } from "../../server";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { untilJobsFinished } from "../support/jobs";
import { accountOnTestClock, localStripe, payThroughLocalService, postPaymentEvent } from "../support/payments";
import { readMail, startSmtpSink } from "../support/smtp-sink";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// Every payer hears from us (docs/decisions/048), over real SMTP: a receipt for every kind of
// payment, with a page it links to, and a notice for every refund; a webhook told twice sends one.

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: RunningServer;
beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ SMTP_URL: smtp.url, JOB_POLL_SECONDS: "0.5" });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const card = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 40", cvc: "123" };

const html = async (response: Response) =>
  (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&amp;", "&");

/** The messages to `address` so far, read. */
const mailsTo = (address: string) => smtp.to(address).map(readMail);

/** Waits for a message to `address` whose subject passes `match`; the mail, read. */
const untilMail = (address: string, match: (subject: string) => boolean, what: string) =>
  until(() => mailsTo(address).find((mail) => match(mail.subject)), { timeout: 20_000, what });

/** Pays the local payment page at `url` with the test card, as a person without JavaScript. */
async function payWithTestCard(client: TestClient, url: string) {
  const paid = await client.form(new URL(url).pathname, card);
  expect(paid.status).toBe(302);
}

/** The path (and key) of the receipt page a mail links to. */
function receiptLinkIn(text: string) {
  const url = new URL(/https?:\/\/\S+\/receipts\/[0-9a-f-]{36}\?t=[\w-]+/.exec(text)![0]);
  return { path: url.pathname, withKey: `${url.pathname}${url.search}` };
}

/** The completed checkout's webhook, told again as a new delivery (Stripe resends after a time-out): it must change nothing. */
async function tellCheckoutAgain(sessionId: string) {
  const [told] = await db()
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.objectId, sessionId), eq(paymentEvents.type, "checkout.session.completed")));
  const session = (await localStripe().checkout.sessions.retrieve(sessionId)) as unknown as Record<string, unknown>;
  const client = new TestClient(server.url);
  expect((await postPaymentEvent(client, "checkout.session.completed", session, told!.id)).body.data?.outcome).toBe("duplicate");
  expect((await postPaymentEvent(client, "checkout.session.completed", session)).status).toBe(200);
}

/** A Chorus with a group gift card its contributors can chip into. */
async function chorusWithGift() {
  const { user, client } = await loggedInUser(server.url);
  const event = await createTestEvent(user, { title: "Ana turns 40" });
  await insertRecipient(db(), event.id, { firstName: "Ana", lastName: "Silva", email: uniqueEmail("ana"), phone: null });
  await client.form(`/e/${event.uuid}`, { intent: "gift", country: "US", productId: "LOCAL-BOOKS-USD", target: "" });
  return event;
}

/** A contributor chips `amount` into the Chorus's gift and pays; their e-mail and the payment's session. */
async function chipIn(event: { uuid: string }, amount: string) {
  const email = uniqueEmail("friend");
  const contributor = new TestClient(server.url);
  const started = await contributor.post("/api/v2/tremendous/contributions", { eventUuid: event.uuid, name: "Bea", email, amount });
  expect(started.status).toBe(200);
  await payWithTestCard(contributor, started.body.data.url);
  return { email, contributor, sessionId: new URL(started.body.data.url).pathname.split("/").at(-1)! };
}

const receiptOfPayment = (paymentIntentId: string) =>
  until(async () => (await db().select().from(receipts).where(eq(receipts.providerPaymentId, paymentIntentId)))[0], {
    timeout: 20_000,
    what: "the payment's receipt",
  });

describe("every payment sends its payer a receipt", () => {
  test("a Chorus's cart: one receipt, linking to its invoice, however often its webhook is told", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const payment = await payThroughLocalService(client, event);
    const [invoice] = await until(
      async () => {
        const rows = await db().select().from(invoices).where(eq(invoices.paymentId, payment.id));
        return rows.length > 0 && rows;
      },
      {
        what: "the cart's invoice",
      },
    );
    const mail = await untilMail(user.email, (subject) => subject === `Your Chorus receipt ${invoice!.number}`, "the cart's receipt");
    expect(mail.text).toContain("Your Chorus: $5.00");
    expect(mail.text).toContain(`${server.url}/settings/billing/invoices/${invoice!.id}`);

    await tellCheckoutAgain(payment.providerSessionId!);
    await untilJobsFinished("invoice-receipt", { data: { invoiceId: invoice!.id } });
    expect(mailsTo(user.email).filter((m) => m.subject.startsWith("Your Chorus receipt"))).toHaveLength(1);
  });

  test("VIP: its first period and its renewal each send a receipt linking to their invoice", async () => {
    const { user, client } = await loggedInUser(server.url);
    const clock = await accountOnTestClock(user);
    const join = await client.form("/settings/billing", { plan: "vip-monthly" });
    await payWithTestCard(client, join.headers.get("location")!);
    const member = await until(async () => (await findUserById(db(), user.id))?.membershipRenewsAt, {
      timeout: 20_000,
      what: "the membership",
    });
    await untilMail(user.email, (subject) => subject.startsWith("Your Chorus receipt"), "the first period's receipt");

    await clock.advanceTo(member.getTime() / 1000 + 1);
    const both = await until(
      async () => {
        const rows = await db().select().from(invoices).where(eq(invoices.userId, user.id));
        return rows.length === 2 && rows;
      },
      { timeout: 20_000, what: "the renewal's invoice" },
    );
    for (const invoice of both) {
      const mail = await untilMail(
        user.email,
        (subject) => subject === `Your Chorus receipt ${invoice.number}`,
        `receipt ${invoice.number}`,
      );
      expect(mail.text).toContain("VIP membership, monthly: $9.99");
      expect(mail.text).toContain(`/settings/billing/invoices/${invoice.id}`);
    }
  });

  test("a gift card chip-in: its contributor's receipt opens through its link without an account, to no one without it; told twice, one receipt", async () => {
    const event = await chorusWithGift();
    const { email, sessionId } = await chipIn(event, "12.50");
    const mail = await untilMail(email, (subject) => subject === "Your Chorus receipt: $12.50 for a gift card", "the chip-in's receipt");
    expect(mail.text).toContain("Thank you, Bea");
    expect(mail.text).toContain("You paid $12.50 for a gift card, for Ana turns 40");

    const link = receiptLinkIn(mail.text);
    const page = await new TestClient(server.url).raw("GET", link.withKey);
    expect(page.status).toBe(200);
    // Its key goes to no other site: the last policy a browser reads wins, and the page says so too.
    expect(page.headers.get("referrer-policy")?.split(",").at(-1)?.trim()).toBe("no-referrer");
    const shown = await html(page);
    expect(shown).toContain('<meta name="referrer" content="no-referrer"/>');
    expect(shown).toContain("A gift card, for Ana turns 40");
    expect(shown).toContain("$12.50");
    expect(shown).toContain(email);
    expect((await new TestClient(server.url).raw("GET", link.path)).status).toBe(404);
    expect((await new TestClient(server.url).raw("GET", `${link.path}?t=${crypto.randomBytes(32).toString("base64url")}`)).status).toBe(
      404,
    );
    expect((await (await loggedInUser(server.url)).client.raw("GET", link.path)).status).toBe(404);
    expect((await (await loggedInUser(server.url, "editor")).client.raw("GET", link.path)).status).toBe(200);

    await tellCheckoutAgain(sessionId);
    const [receipt] = await db().select().from(receipts).where(eq(receipts.email, email));
    await untilJobsFinished("payment-receipt", { data: { receiptId: receipt!.id } });
    expect(mailsTo(email)).toHaveLength(1);
  });

  test("trees: the contributor's receipt says how many", async () => {
    const { user } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const email = uniqueEmail("planter");
    const contributor = new TestClient(server.url);
    const started = await contributor.post("/api/v2/tree/contributions", { eventUuid: event.uuid, name: "Cy", email, quantity: 2 });
    await payWithTestCard(contributor, started.body.data.url);
    const mail = await untilMail(email, (subject) => subject === "Your Chorus receipt: $5.00 for 2 trees", "the trees' receipt");
    expect(mail.text).toContain("Thank you, Cy");
    expect((await contributor.raw("GET", receiptLinkIn(mail.text).withKey)).status).toBe(200);
  });

  test("a postcard and a DVD by post: the organiser's receipts, opened signed in from the billing page as well", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user, { title: "Ana turns 40" });
    const address = { name: "Ada Lovelace", line1: "350 Fifth Avenue", city: "New York", region: "ny", postalCode: "10118", country: "us" };
    const postcard = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "evening", address })).body.data.id;
    const checkout = await client.post(`/api/v2/postcards/${postcard}/checkout`);
    await payWithTestCard(client, checkout.body.data.url);
    const postcardMail = await untilMail(
      user.email,
      (s) => s === "Your Chorus receipt: $4.99 for a printed postcard",
      "the postcard's receipt",
    );
    expect(postcardMail.text).toContain("for Ana turns 40");

    await publishVersion(db(), {
      eventId: event.id,
      renderJobId: null,
      videoKey: `missing/${crypto.randomUUID()}.mp4`,
      posterKey: null,
      durationSeconds: 10,
      width: 1280,
      height: 720,
      sizeBytes: 1000,
      publishedById: user.id,
    });
    const order = await client.post("/api/v2/acutrack/orders", { eventId: event.id, quantity: 1, ...address });
    expect(order.status).toBe(201);
    await payWithTestCard(client, order.body.data.paymentUrl);
    await untilMail(user.email, (s) => s === "Your Chorus receipt: $23.99 for a DVD of the video", "the DVD's receipt");

    const billing = await html(await client.raw("GET", "/settings/billing"));
    const listed = [...billing.matchAll(/href="(\/receipts\/[0-9a-f-]{36})">([^<]+)</g)].map((m) => ({ path: m[1]!, what: m[2] }));
    expect(listed.map((r) => r.what).sort()).toEqual(["A DVD of the video", "A printed postcard"]);
    for (const { path } of listed) {
      expect((await client.raw("GET", path)).status).toBe(200);
      expect((await (await loggedInUser(server.url)).client.raw("GET", path)).status).toBe(404);
    }
  });
});

describe("every refund is told to the person who paid", () => {
  const refund = (paymentIntentId: string, amount?: number) =>
    paymentsProvider().refund({ paymentIntentId, amount, idempotencyKey: `refund-${paymentIntentId}-${amount ?? "rest"}` });

  /** The payment service's charge.refunded event about `paymentIntentId` that said `refunded` in all. */
  const refundEventOf = async (paymentIntentId: string, refunded: number) =>
    (
      await listLocalPaymentObjects(db(), "event", {
        type: "charge.refunded",
        data: { object: { payment_intent: paymentIntentId, amount_refunded: refunded } },
      })
    )[0] as unknown as { id: string; data: { object: Record<string, unknown> } };

  test("a cart refunded in part, then the rest: the organiser hears of each refund once, with its invoice", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const payment = await payThroughLocalService(client, event);
    const [invoice] = await db().select().from(invoices).where(eq(invoices.paymentId, payment.id));

    await refund(payment.providerPaymentId, 200);
    const partial = await untilMail(
      user.email,
      (s) => s === "$2.00 of your $5.00 for your Chorus is refunded",
      "the partial refund's notice",
    );
    expect(partial.text).toContain(`We have refunded $2.00 of the $5.00 you paid for your Chorus`);
    expect(partial.text).toContain(`Receipt ${invoice!.number}.`);
    expect(partial.text).toContain(`${server.url}/settings/billing/invoices/${invoice!.id}`);

    // The same refund told again, as the same event and as a new delivery of it, tells no one twice.
    const told = await refundEventOf(payment.providerPaymentId, 200);
    const again = new TestClient(server.url);
    expect((await postPaymentEvent(again, "charge.refunded", told.data.object, told.id)).body.data?.outcome).toBe("duplicate");
    expect((await postPaymentEvent(again, "charge.refunded", told.data.object)).body.data?.outcome).toBe("applied");

    await refund(payment.providerPaymentId);
    const rest = await untilMail(user.email, (s) => s === "$3.00 of your $5.00 for your Chorus is refunded", "the second refund's notice");
    expect(rest.text).toContain("all of it has now come back to you");
    await untilJobsFinished("refund-notice", { data: { ledger: "payment", id: payment.id } }, { atLeast: 2 });
    expect(mailsTo(user.email).filter((m) => m.subject.endsWith("is refunded"))).toHaveLength(2);
  });

  test("a membership's period refunded: the member hears of it, with its invoice", async () => {
    const { user, client } = await loggedInUser(server.url);
    const join = await client.form("/settings/billing", { plan: "vip-yearly" });
    await payWithTestCard(client, join.headers.get("location")!);
    const [invoice] = await until(
      async () => {
        const rows = await db().select().from(invoices).where(eq(invoices.userId, user.id));
        return rows.length > 0 && rows;
      },
      {
        timeout: 20_000,
        what: "the membership's invoice",
      },
    );
    const [payment] = await db().select().from(payments).where(eq(payments.id, invoice!.paymentId!));
    await refund(payment!.providerPaymentId);
    const notice = await untilMail(
      user.email,
      (s) => s === "Your $99.90 for your VIP membership is refunded",
      "the membership's refund notice",
    );
    expect(notice.text).toContain(`Receipt ${invoice!.number}.`);
    expect(notice.text).toContain(`/settings/billing/invoices/${invoice!.id}`);
  });

  test("a gift card chip-in refunded at the payment service: its contributor hears of it, and the receipt says so", async () => {
    const event = await chorusWithGift();
    const { email, contributor } = await chipIn(event, "12.50");
    const receiptMail = await untilMail(email, (s) => s.startsWith("Your Chorus receipt"), "the chip-in's receipt");
    const [row] = await db().select().from(receipts).where(eq(receipts.email, email));

    await refund(row!.providerPaymentId);
    const notice = await untilMail(email, (s) => s === "Your $12.50 for a gift card is refunded", "the refund's notice");
    expect(notice.text).toContain("Bea, your payment is refunded");
    expect(notice.text).toContain("We have refunded the $12.50 you paid for a gift card");
    const link = receiptLinkIn(notice.text);
    expect(link).toEqual(receiptLinkIn(receiptMail.text));
    const shown = await html(await contributor.raw("GET", link.withKey));
    expect(shown).toContain("Refunded");
    expect(shown).toContain("−$12.50");
  });

  test("trees refunded in part: the contributor hears how much", async () => {
    const { user } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const email = uniqueEmail("planter");
    const contributor = new TestClient(server.url);
    const started = await contributor.post("/api/v2/tree/contributions", { eventUuid: event.uuid, name: "Cy", email, quantity: 2 });
    await payWithTestCard(contributor, started.body.data.url);
    const row = await until(
      async () => (await db().select().from(treeContributions).where(eq(treeContributions.id, started.body.data.id)))[0]?.paymentIntentId,
      {
        timeout: 20_000,
        what: "the trees' payment",
      },
    );
    await receiptOfPayment(row);
    await refund(row, 250);
    await untilMail(email, (s) => s === "$2.50 of your $5.00 for 2 trees is refunded", "the partial refund's notice");
  });

  test("a postcard the print service could not take: the organiser hears why, once", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    const address = { name: "Ada Lovelace", line1: "350 Fifth Avenue", city: "New York", region: "ny", postalCode: "10118", country: "us" };
    const id = (await client.post("/api/v2/postcards", { eventId: event.id, templateId: "evening", address })).body.data.id;
    // As if the served countries changed between checkout and printing.
    const stored = (await db().select().from(postcards).where(eq(postcards.id, id)))[0]!.address!;
    await db()
      .update(postcards)
      .set({ address: { ...stored, country: "JP" } })
      .where(eq(postcards.id, id));
    const checkout = await client.post(`/api/v2/postcards/${id}/checkout`);
    await payWithTestCard(client, checkout.body.data.url);
    const notice = await untilMail(
      user.email,
      (s) => s === "Your $4.99 for a printed postcard is refunded",
      "the postcard's refund notice",
    );
    expect(notice.text).toContain("Your postcard could not be sent: The address cannot be posted to.");
    await until(async () => (await db().select().from(postcards).where(eq(postcards.id, id)))[0]?.status === "refunded", {
      what: "the card refunded",
    });
    expect(mailsTo(user.email).filter((m) => m.subject.includes("refunded"))).toHaveLength(1);
  });
});
