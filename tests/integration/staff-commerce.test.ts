import crypto from "node:crypto";
import { localPaymentObjects, payments, promoCodes, staffActions } from "drizzle/schema";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findEventById, insertRecipient } from "~/models/event.server";
import { insertPromoCode } from "~/models/promo-code.server";
import type { RunningServer } from "../../server";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { createTestEvent } from "../support/events";
import type { TestClient } from "../support/http-client";
import { payThroughLocalService } from "../support/payments";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// Administrators' payments and promo code pages, through the real server and the local payment
// service, with plain form posts as a browser without JavaScript sends them.

let server: RunningServer;
let admin: Awaited<ReturnType<typeof loggedInUser>>;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
  admin = await loggedInUser(server.url, "admin");
});
afterAll(() => server?.close());

const page = async (client: TestClient, path: string) => {
  const response = await client.raw("GET", path);
  const html = (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
  return { status: response.status, html };
};

const actionsOn = (subjectId: string) => db().select().from(staffActions).where(eq(staffActions.subjectId, subjectId));

async function paidChorus() {
  const organiser = await loggedInUser(server.url);
  const event = await createTestEvent(organiser.user);
  await insertRecipient(db(), event.id, { firstName: "Bo", lastName: "", email: uniqueEmail("bo"), phone: null });
  const payment = await payThroughLocalService(organiser.client, event);
  return { ...organiser, event, payment };
}

/** Refunds the local payment service has made for a payment. */
const refundsAtService = (paymentIntent: string) =>
  db()
    .select()
    .from(localPaymentObjects)
    .where(and(eq(localPaymentObjects.object, "refund"), sql`${localPaymentObjects.data}->>'payment_intent' = ${paymentIntent}`));

describe("payments", () => {
  test("listed newest first with buyer, Chorus, invoice and the payment service's ids; searchable by e-mail or invoice number", async () => {
    const first = await paidChorus();
    const second = await paidChorus();
    const list = await page(admin.client, "/admin/payments");
    expect(list.status).toBe(200);
    // Newest first.
    expect(list.html.indexOf(second.user.email)).toBeGreaterThan(-1);
    expect(list.html.indexOf(second.user.email)).toBeLessThan(list.html.indexOf(first.user.email));
    expect(list.html).toContain(first.payment.providerPaymentId);
    expect(list.html).toContain("$5.00");

    const byEmail = await page(admin.client, `/admin/payments?q=${encodeURIComponent(first.user.email.toUpperCase())}`);
    expect(byEmail.html).toContain(first.user.email);
    expect(byEmail.html).not.toContain(second.user.email);
    const invoice = /CH-\d{6}/.exec((await page(admin.client, `/admin/payments/${second.payment.id}`)).html)![0];
    const byInvoice = await page(admin.client, `/admin/payments?q=${invoice.toLowerCase()}`);
    expect(byInvoice.html).toContain(second.user.email);
    expect(byInvoice.html).not.toContain(first.user.email);
    // A search with LIKE's wildcards matches them literally.
    const none = await page(admin.client, "/admin/payments?q=%25_%25");
    expect(none.html).toContain("No payment matches");
    // A page past the end is empty, not an error.
    expect((await page(admin.client, "/admin/payments?page=9999")).html).toContain("No payments yet");
  });

  test("refund part, pressed twice at once: one refund; the webhook then marks it, and the rest refunded locks the Chorus again", async () => {
    const { event, payment, client: organiser } = await paidChorus();
    const detail = await page(admin.client, `/admin/payments/${payment.id}`);
    expect(detail.html).toContain("Nothing refunded so far");
    expect(detail.html).toMatch(/Invoice CH-\d{6}/);
    expect(detail.html).toContain("Your Chorus");

    const part = { scope: "part", amount: "2.00", reason: "The music was wrong" };
    const [a, b] = await Promise.all([
      admin.client.form(`/admin/payments/${payment.id}`, part),
      admin.client.form(`/admin/payments/${payment.id}`, part),
    ]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(a.headers.get("location")).toBe(`/admin/payments/${payment.id}`);
    expect(await refundsAtService(payment.providerPaymentId)).toHaveLength(1);
    expect(await actionsOn(payment.id)).toHaveLength(1);
    // The form changed nothing of ours: the payment service's webhook does.
    await until(
      async () => {
        const [row] = await db().select().from(payments).where(eq(payments.id, payment.id));
        return row?.status === "partially_refunded" && row.amountRefunded === 200;
      },
      { timeout: 20_000, what: "the refund's webhook" },
    );
    expect((await findEventById(db(), event.id))!.paid).toBe(true);
    const after = await page(admin.client, `/admin/payments/${payment.id}`);
    expect(after.html).toContain("$2.00 refunded so far");
    expect(after.html).toContain("Refund requested: $2.00");
    expect(after.html).toContain(admin.user.email);
    expect(after.html).toContain("The music was wrong");

    // More than is left: a clear 400, and nothing asked or recorded.
    const tooMuch = await admin.client.form(`/admin/payments/${payment.id}`, { scope: "part", amount: "3.01", reason: "Oops" });
    expect(tooMuch.status).toBe(400);
    expect((await tooMuch.text()).replaceAll("<!-- -->", "")).toContain("At most $3.00 is left to refund on this payment");
    const wrongAmount = await admin.client.form(`/admin/payments/${payment.id}`, { scope: "part", amount: "two", reason: "Oops" });
    expect(wrongAmount.status).toBe(400);
    expect(await refundsAtService(payment.providerPaymentId)).toHaveLength(1);

    const rest = await admin.client.form(`/admin/payments/${payment.id}`, { scope: "whole", reason: "Cancelled the Chorus" });
    expect(rest.status).toBe(302);
    await until(async () => !(await findEventById(db(), event.id))!.paid, { timeout: 20_000, what: "the full refund to lock the Chorus" });
    const [refunded] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(refunded).toMatchObject({ status: "refunded", amountRefunded: 500 });
    expect(await actionsOn(payment.id)).toHaveLength(2);
    // Decision 018: a full refund locks delivery again.
    expect((await organiser.post(`/api/v2/events/${event.id}/deliver`, {})).status).toBe(402);
    const done = await page(admin.client, `/admin/payments/${payment.id}`);
    expect(done.html).toContain("refunded in full");
    expect(done.html).not.toContain('name="scope"');
    const again = await admin.client.form(`/admin/payments/${payment.id}`, { scope: "whole", reason: "Again" });
    expect(again.status).toBe(400);
  });

  test("a payment service error is said plainly, and nothing is recorded", async () => {
    const { user } = await loggedInUser(server.url);
    const [orphan] = await db()
      .insert(payments)
      .values({
        provider: "local",
        providerPaymentId: `pi_missing_${crypto.randomBytes(4).toString("hex")}`,
        amount: 500,
        currency: "usd",
        userId: user.id,
      })
      .returning();
    const reply = await admin.client.form(`/admin/payments/${orphan!.id}`, { scope: "whole", reason: "Test" });
    expect(reply.status).toBe(502);
    expect((await reply.text()).replaceAll("&#x27;", "'")).toContain("The payment service refused this refund: No such payment_intent");
    expect(await actionsOn(orphan!.id)).toHaveLength(0);
    const [row] = await db().select().from(payments).where(eq(payments.id, orphan!.id));
    expect(row).toMatchObject({ status: "paid", amountRefunded: 0 });
  });

  test("a payment that does not exist is a 404; a form from another site is refused", async () => {
    expect((await page(admin.client, `/admin/payments/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await page(admin.client, "/admin/payments/not-an-id")).status).toBe(404);
    const { payment } = await paidChorus();
    const crossSite = await admin.client.form(
      `/admin/payments/${payment.id}`,
      { scope: "whole", reason: "Forged" },
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(await refundsAtService(payment.providerPaymentId)).toHaveLength(0);
  });
});

describe("promo codes", () => {
  const create = (fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v);
    return admin.client.raw("POST", "/admin/promo-codes", {
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  };
  const codeText = () => `STAFF-${crypto.randomBytes(3).toString("hex").toUpperCase()}`;

  test("created with its settings and recorded with who made it; its page lists it", async () => {
    const code = codeText();
    const made = await create({
      code: code.toLowerCase(),
      kind: "amount",
      value: "1.50",
      expiresOn: "2099-12-31",
      maxRedemptions: "10",
      maxPerUser: "1",
      productKeys: ["chorus", "premium"],
      firstPurchaseOnly: "on",
    });
    expect(made.status).toBe(302);
    const [row] = await db().select().from(promoCodes).where(eq(promoCodes.code, code));
    expect(row).toMatchObject({
      kind: "amount",
      value: 150,
      currency: "usd",
      maxRedemptions: 10,
      maxPerUser: 1,
      productKeys: ["chorus", "premium"],
      firstPurchaseOnly: true,
      paused: false,
      createdBy: admin.user.id,
      expiresAt: new Date("2100-01-01T00:00:00Z"),
    });
    expect(made.headers.get("location")).toBe(`/admin/promo-codes/${row!.id}`);
    const detail = await page(admin.client, `/admin/promo-codes/${row!.id}`);
    expect(detail.html).toContain("$1.50 off");
    expect(detail.html).toContain("Your Chorus, Premium finish");
    expect(detail.html).toContain("Code created");
    expect(detail.html).toContain(admin.user.email);
    const list = await page(admin.client, "/admin/promo-codes");
    expect(list.html).toContain(code);
    expect(list.html).toContain("0 / 10");
    expect(list.html).toContain("2099-12-31 23:59 UTC");

    // The same code in another case is refused by name.
    const twice = await create({ code: code.toLowerCase(), kind: "percent", value: "10" });
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain(`There is already a code ${code}`);
  });

  test("a code left empty is made up; wrong fields are named and nothing is made", async () => {
    const before = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(promoCodes)
    )[0]!.n;
    const wrong = await create({ code: "x", kind: "percent", value: "120", expiresOn: "2001-01-01", productKeys: ["nothing"] });
    expect(wrong.status).toBe(400);
    const html = (await wrong.text()).replaceAll("&#x27;", "'");
    expect(html).toContain("Use 3 to 32 letters, digits and dashes");
    expect(html).toContain("Enter a whole percentage from 1 to 100.");
    expect(html).toContain("Choose a day from today on.");
    expect(html).toContain("Choose among the products we sell.");
    expect(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(promoCodes)
      )[0]!.n,
    ).toBe(before);

    const made = await create({ code: "", kind: "percent", value: "15" });
    expect(made.status).toBe(302);
    const id = made.headers.get("location")!.split("/").at(-1)!;
    const [row] = await db().select().from(promoCodes).where(eq(promoCodes.id, id));
    expect(row!.code).toMatch(/^CHORUS-[A-Z2-9]{8}$/);
  });

  test("paused, a code is refused to buyers; resumed, it works again; both are recorded", async () => {
    const code = await insertPromoCode(db(), { code: codeText(), kind: "percent", value: 10 });
    const buyer = await loggedInUser(server.url);
    const paused = await admin.client.form(`/admin/promo-codes/${code.id}`, { intent: "pause" });
    expect(paused.status).toBe(302);
    expect((await buyer.client.get(`/api/v2/promo-codes/check/${code.code}`)).body.data).toMatchObject({
      applies: false,
      reason: "paused",
    });
    // Pausing a paused code changes and records nothing.
    await admin.client.form(`/admin/promo-codes/${code.id}`, { intent: "pause" });
    const resumed = await admin.client.form(`/admin/promo-codes/${code.id}`, { intent: "resume", back: "list" });
    expect(resumed.headers.get("location")).toBe("/admin/promo-codes");
    expect((await buyer.client.get(`/api/v2/promo-codes/check/${code.code}`)).body.data).toMatchObject({ applies: true });
    expect((await actionsOn(code.id)).map((a) => a.action).sort()).toEqual(["promo_code_paused", "promo_code_resumed"]);
    const detail = await page(admin.client, `/admin/promo-codes/${code.id}`);
    expect(detail.html).toContain("Code paused");
    expect(detail.html).toContain("Code resumed");
  });

  test("its page lists who used it, on which Chorus, with the invoice", async () => {
    const code = await insertPromoCode(db(), { code: codeText(), kind: "percent", value: 100 });
    const organiser = await loggedInUser(server.url);
    const event = await createTestEvent(organiser.user, { title: "Grandma's ninetieth" });
    const cart = (await organiser.client.post("/api/v2/carts", { eventId: event.id })).body.data;
    await organiser.client.put(`/api/v2/carts/${cart.id}`, { promoCode: code.code });
    const settled = await organiser.client.post(`/api/v2/carts/${cart.id}/finalize`);
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    const detail = await page(admin.client, `/admin/promo-codes/${code.id}`);
    expect(detail.html).toContain(organiser.user.email);
    expect(detail.html).toContain(settled.body.data.invoiceNumber);
    expect(detail.html).toContain(`/e/${event.uuid}`);
    expect(detail.html).toContain("$5.00");
    expect((await page(admin.client, "/admin/promo-codes")).html).toContain("1 / no limit");
  });
});
