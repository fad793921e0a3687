import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { invoices, payments, type Event } from "drizzle/schema";
import { asc, eq } from "drizzle-orm";
import sharp from "sharp";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import yauzl from "yauzl";
import { db } from "~/lib/db.server";
import { findEventById } from "~/models/event.server";
import { insertGuestbookEntry } from "~/models/guestbook.server";
import { insertMedia } from "~/models/media.server";
import { findInvoiceOfCart } from "~/models/payment.server";
import { insertPromoCode } from "~/models/promo-code.server";
import { paymentEffect } from "~/services/commerce/payment-effects.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createPaidTestEvent, createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { grantProducts, payOnCartPage, payThroughLocalService } from "../support/payments";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

let server: RunningServer;
let workDir: string;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-keepsakes-"));
});
afterAll(async () => {
  await server.close();
  await fs.rm(workDir, { recursive: true, force: true });
});

const invoicesOf = (event: Event) => db().select().from(invoices).where(eq(invoices.eventId, event.id)).orderBy(asc(invoices.number));

const pageOf = async (client: TestClient, url: string) => (await client.raw("GET", url)).text();

describe("buying after paying", () => {
  test("a paid Chorus gets a later cart offering only what it lacks, paid by card with a second invoice; refunding it leaves the Chorus paid", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createTestEvent(user);
    await payThroughLocalService(client, event);

    const later = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
    expect(later).toMatchObject({ status: "open", laterPurchase: true, products: [], lineItems: [], totals: { total: 0 } });
    expect(later.upsells.map((p: { key: string }) => p.key)).toEqual(["premium"]);
    expect(later.availableAddons.map((p: { key: string }) => p.key)).toEqual(["originals-zip"]);
    // Nothing chosen yet: nothing to settle.
    expect((await client.post(`/api/v2/carts/${later.id}/finalize`)).body.error.code).toBe("CART_EMPTY");
    // The Chorus itself cannot be bought again.
    const chosen = await client.put(`/api/v2/carts/${later.id}`, { selected: ["originals-zip", "chorus"] });
    expect(chosen.body.data).toMatchObject({ products: [{ key: "originals-zip", quantity: 1 }], totals: { total: 300 } });
    expect(chosen.body.data.lineItems.map((l: { key: string }) => l.key)).toEqual(["originals-zip"]);
    expect(await pageOf(client, `/e/${event.uuid}/checkout`)).toContain("Pay $3.00");

    await payOnCartPage(client, event, ["originals-zip"]);
    await until(async () => (await invoicesOf(event)).length === 2, { timeout: 20_000, what: "the later purchase's invoice" });
    const [first, second] = await invoicesOf(event);
    expect(first!.lines.map((l) => l.key)).toEqual(["chorus"]);
    expect(second).toMatchObject({ total: 300, cartId: later.id });
    expect(second!.lines.map((l) => l.key)).toEqual(["originals-zip"]);

    // What is left to buy no longer holds the add-on; the zip is there to download.
    const next = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
    expect(next.id).not.toBe(later.id);
    expect(next.availableAddons).toEqual([]);
    expect(next.upsells.map((p: { key: string }) => p.key)).toEqual(["premium"]);
    expect((await client.raw("GET", `/e/${event.uuid}/originals.zip`)).status).toBe(200);

    // Refunding the later purchase in full takes back the add-on, not the Chorus.
    const [payment] = await db().select().from(payments).where(eq(payments.id, second!.paymentId!));
    const charge = {
      id: "ch_later",
      object: "charge",
      payment_intent: payment!.providerPaymentId,
      amount: 300,
      amount_refunded: 300,
      refunded: true,
    };
    const refunded = await db().transaction((tx) =>
      paymentEffect(
        { id: `evt_${crypto.randomUUID()}`, type: "charge.refunded", created: Math.floor(Date.now() / 1000), data: { object: charge } },
        tx,
      ),
    );
    expect(refunded).toMatchObject({ effect: "refund", status: "refunded", eventPaid: null });
    expect((await findEventById(db(), event.id))!.paid).toBe(true);
    expect((await client.raw("GET", `/e/${event.uuid}/originals.zip`)).status).toBe(402);
  });

  test("a later cart that comes to nothing is confirmed through finalize with its own invoice; a Chorus with everything says so", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createPaidTestEvent(user);
    const code = await insertPromoCode(db(), {
      code: `ALL-${crypto.randomBytes(4).toString("hex").toUpperCase()}`,
      kind: "percent",
      value: 100,
    });
    const cart = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
    const chosen = await client.put(`/api/v2/carts/${cart.id}`, { selected: ["premium", "originals-zip"], promoCode: code.code });
    expect(chosen.body.data.totals).toMatchObject({ subtotal: 700, discount: 700, total: 0 });
    const done = await client.post(`/api/v2/carts/${cart.id}/finalize`);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.cart).toMatchObject({ status: "paid", laterPurchase: true });
    const invoice = (await findInvoiceOfCart(db(), cart.id))!;
    expect(invoice.lines.map((l) => l.key)).toEqual(["premium", "originals-zip"]);
    expect(invoice.total).toBe(0);

    // Everything bought: the cart it was bought with, and the page says there is nothing left.
    const again = (await client.post("/api/v2/carts", { eventId: event.id })).body.data;
    expect(again).toMatchObject({ id: cart.id, status: "paid", upsells: [], availableAddons: [] });
    const page = await pageOf(client, `/e/${event.uuid}/checkout`);
    expect(page).toContain("Paid — thank you");
    expect(page).toContain("there is nothing left to buy");
    expect(page).not.toContain('name="intent" value="pay"');
  });
});

/** A contribution whose original is `bytes`, stored as an upload would be. */
async function addOriginal(
  event: Event,
  bytes: Buffer,
  fields: { originalName: string; contributorName: string; caption?: string; kind?: "photo" },
) {
  const local = path.join(workDir, crypto.randomUUID());
  await fs.writeFile(local, bytes);
  const key = `events/${event.id}/uploads/${crypto.randomUUID()}`;
  await storage().putFile(key, local, "application/octet-stream");
  return insertMedia(db(), {
    eventId: event.id,
    purpose: "contribution",
    originalKey: key,
    originalName: fields.originalName,
    mimeType: "application/octet-stream",
    sizeBytes: bytes.length,
    contributorName: fields.contributorName,
    caption: fields.caption ?? "",
    kind: fields.kind ?? null,
    uploadId: `test-${crypto.randomUUID()}`,
  });
}

/** Every entry of a zip: its name and its bytes. */
function readZip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, async (failed, stream) => {
          if (failed || !stream) return reject(failed);
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
      zip.on("end", () => resolve(entries));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

describe("every original (zip)", () => {
  test("refused 402 with the cart before the add-on, 404 to others; with it, every original as it was sent", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createPaidTestEvent(user);
    const sent = [
      { bytes: crypto.randomBytes(70_000), originalName: "IMG 0001.JPG", contributorName: "José Álvarez" },
      { bytes: crypto.randomBytes(5_000), originalName: "IMG 0001.JPG", contributorName: "José Álvarez" },
      { bytes: crypto.randomBytes(12_345), originalName: "../../etc/passwd.mov", contributorName: "" },
    ];
    for (const s of sent) await addOriginal(event, s.bytes, s);

    const refused = await client.get(`/e/${event.uuid}/originals.zip`);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PAYMENT_REQUIRED", fields: { payment: `/e/${event.uuid}/checkout` } });
    const lockedPage = await pageOf(client, `/e/${event.uuid}`);
    expect(lockedPage).toContain("Add every original to your Chorus");
    expect(lockedPage).not.toContain("Download every original (zip)");

    const stranger = await loggedInUser(server.url);
    expect((await stranger.client.get(`/e/${event.uuid}/originals.zip`)).status).toBe(404);
    expect((await new TestClient(server.url).get(`/e/${event.uuid}/originals.zip`)).status).toBe(404);
    expect((await client.get(`/e/${crypto.randomUUID()}/originals.zip`)).status).toBe(404);

    await grantProducts(event, ["originals-zip"]);
    expect(await pageOf(client, `/e/${event.uuid}`)).toContain("Download every original (zip)");
    expect(await pageOf(client, `/e/${event.uuid}/arrange`)).toContain("Download every original (zip)");
    const response = await client.raw("GET", `/e/${event.uuid}/originals.zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toContain(`chorus-${event.eventId}-originals.zip`);
    const entries = await readZip(Buffer.from(await response.arrayBuffer()));
    expect([...entries.keys()]).toEqual(["001-Jose-Alvarez-IMG-0001.jpg", "002-Jose-Alvarez-IMG-0001.jpg", "003-etcpasswd.mov"]);
    expect([...entries.values()].map((bytes, i) => bytes.equals(sent[i]!.bytes))).toEqual([true, true, true]);
  });
});

describe("guestbook keepsake (PDF)", () => {
  test("refused 402 before the add-on, 404 to others and for a Chorus without a guestbook", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createPaidTestEvent(user, { guestbook: true });
    const refused = await client.get(`/e/${event.uuid}/guestbook.pdf`);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PAYMENT_REQUIRED", fields: { payment: `/e/${event.uuid}/checkout` } });
    expect(await pageOf(client, `/e/${event.uuid}`)).toContain("Add the guestbook keepsake to your Chorus");
    const stranger = await loggedInUser(server.url);
    await grantProducts(event, ["guestbook-book"]);
    expect((await stranger.client.get(`/e/${event.uuid}/guestbook.pdf`)).status).toBe(404);

    const plain = await createPaidTestEvent(user);
    await grantProducts(plain, ["guestbook-book"]);
    expect((await client.get(`/e/${plain.uuid}/guestbook.pdf`)).status).toBe(404);
  });

  test("an empty guestbook's PDF says there are no messages yet, and so does the page", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createPaidTestEvent(user, { guestbook: true, title: "Ana's fortieth" });
    await grantProducts(event, ["guestbook-book"]);
    const page = await pageOf(client, `/e/${event.uuid}`);
    expect(page.indexOf("There are no messages yet.")).toBeGreaterThan(-1);
    expect(page.indexOf("There are no messages yet.")).toBeLessThan(page.indexOf("Download the guestbook (PDF)"));
    const { pages, text } = await pdfOf(client, event);
    expect(pages).toBe(2);
    expect(text.join("\n")).toContain("Ana's fortieth");
    expect(text[1]).toContain("There are no messages yet.");
  });

  test("with messages: a cover, then every message with its writer, a few to a page; text the fonts lack does not break it", async () => {
    const { user, client } = await loggedInUser(server.url);
    const event = await createPaidTestEvent(user, { guestbook: true });
    await grantProducts(event, ["guestbook-book"]);
    const written = Array.from({ length: 12 }, (_, i) => ({
      name: `Writer ${i + 1}`,
      message: `Message ${i + 1}: ${"happy memories of the summer by the sea ".repeat(6)}`.trim(),
    }));
    for (const m of written)
      await insertGuestbookEntry(db(), { eventId: event.id, name: m.name, message: m.message, rsvpId: null, uploaderId: null });
    await insertGuestbookEntry(db(), {
      eventId: event.id,
      name: "Mei 🎉",
      message: "生日快乐 — with love 💛",
      rsvpId: null,
      uploaderId: null,
    });
    // A photo sent with words is a message too, printed with its photo.
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#c8553d" } })
      .jpeg()
      .toBuffer();
    await addOriginal(event, photo, { originalName: "beach.jpg", contributorName: "Rui", caption: "The day at the beach", kind: "photo" });

    const response = await client.raw("GET", `/e/${event.uuid}/guestbook.pdf`);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await response.arrayBuffer());
    // Read before the parser takes the bytes over.
    const raw = Buffer.from(bytes).toString("latin1");
    expect(raw.slice(0, 5)).toBe("%PDF-");
    const { pages, text } = await readPdf(bytes);
    // The cover, then a few messages to a page: more than one page of them, fewer pages than messages.
    expect(pages).toBeGreaterThan(2);
    expect(pages).toBeLessThan(1 + written.length);
    const all = text.join("\n").replace(/\s+/g, " ");
    for (const m of written) {
      expect(all).toContain(m.name);
      expect(all).toContain(m.message.replace(/\s+/g, " "));
    }
    expect(all).toContain("with love");
    expect(all).toContain("The day at the beach");
    expect(raw).toMatch(/\/Subtype \/Image/);
  });
});

async function readPdf(bytes: Uint8Array) {
  const { totalPages, text } = await extractText(await getDocumentProxy(bytes), { mergePages: false });
  return { pages: totalPages, text };
}

async function pdfOf(client: TestClient, event: Event) {
  const response = await client.raw("GET", `/e/${event.uuid}/guestbook.pdf`);
  expect(response.status).toBe(200);
  return readPdf(new Uint8Array(await response.arrayBuffer()));
}
