import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { events, media, rsvps, type Event, type Media, type User } from "drizzle/schema";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { insertMedia } from "~/models/media.server";
import { createEvent, parseNewEvent } from "~/services/events/events.server";
import { addInvitee, parseInvitee } from "~/services/invitations/invitations.server";
import type { RunningServer } from "../../server";
import { createUser, lastMailTo, logIn, uniqueEmail } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5" });
});
afterAll(() => server.close());

const DAY = 24 * 60 * 60 * 1000;
const PHONE = "+14155550123";

/** The page's text with React's escapes and text separators undone, so assertions read like the page. */
async function pageOf(response: Response) {
  return (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/**
 * A page opened with a key echoes its own address (its forms post back to it, the menu's
 * close link returns to it); that is the visitor's own link. Anything else must not leak.
 */
const withoutOwnAddress = (page: string, path: string) => page.replaceAll(path, "");

/** The path and query of the first link in a message that contains `fragment` (linkIn keeps only the path). */
function pathIn(text: string, fragment: string) {
  const url = text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(fragment));
  if (!url) throw new Error(`no link with ${fragment} in:\n${text}`);
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** The `<input>` tag for a field, whatever its attribute order. */
function inputTag(page: string, name: string) {
  return (page.match(/<input[^>]*>/g) ?? []).find((t) => t.includes(`name="${name}"`)) ?? "";
}

async function startEvent(creator: User, fields: Record<string, unknown> = {}) {
  return createEvent(
    creator,
    parseNewEvent({
      occasion: "birthday",
      recipients: [{ firstName: "Ana", lastName: "Silva" }, { firstName: "Bo" }],
      deadline: new Date(Date.now() + 10 * DAY).toISOString(),
      timeZone: "Europe/London",
      message: "Record a short clip for Ana and Bo!",
      prompts: ["What's your favourite memory with them?"],
      ...fields,
    }),
  );
}

async function organiser(fields: Record<string, unknown> = {}) {
  const user = await createUser();
  const client = new TestClient(server.url);
  await logIn(client, user.email);
  return { user, client, event: await startEvent(user, fields) };
}

const anonymous = () => new TestClient(server.url);
const rsvpRow = async (id: string) => (await db().select().from(rsvps).where(eq(rsvps.id, id)))[0]!;
const eventRow = async (id: string) => (await db().select().from(events).where(eq(events.id, id)))[0]!;
// In the order they were added: without an order, a row the invitation job has since updated can come last.
const rsvpsOf = (event: Event) => db().select().from(rsvps).where(eq(rsvps.eventId, event.id)).orderBy(asc(rsvps.createdAt));

describe("what each viewer sees on /e/{uuid}", () => {
  test("the organiser manages, everyone else sees only what is theirs", async () => {
    const { client, event } = await organiser();
    const email = uniqueEmail("cy");
    const cy = await addInvitee(event, parseInvitee({ name: "Cyrus Contributor", email, phone: PHONE }));
    await db().update(rsvps).set({ status: "contributed" }).where(eq(rsvps.id, cy.id));
    // The phone number in its formatted shapes too (a bare "415" could turn up inside a random id).
    const secrets = [event.privateKey, event.viewKey, email, PHONE, "(415)", "415 555", "415-555"];

    const creator = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(creator).toContain("Ana and Bo's birthday");
    expect(creator).toContain("Collecting");
    expect(creator).toContain(event.eventId);
    for (const secret of [event.privateKey, event.viewKey, email, PHONE]) expect(creator).toContain(secret);
    expect(creator).toContain("Cyrus Contributor");
    expect(creator).not.toContain("Report This Page");

    const contributorResponse = await anonymous().raw("GET", `/e/${event.uuid}`);
    expect(contributorResponse.status).toBe(200);
    const contributor = await pageOf(contributorResponse);
    expect(contributor).toContain("Ana and Bo's birthday");
    expect(contributor).toContain("Record a short clip for Ana and Bo!");
    expect(contributor).toContain("What's your favourite memory with them?");
    expect(contributor).toMatch(/Add yours by \w+day \d+ \w+/);
    expect(contributor).toContain("Add your photos and clips");
    expect(contributor).toContain(`action="/e/${event.uuid}/contribute"`);
    expect(contributor).toContain("Report This Page");
    expect(contributor).not.toContain("Cyrus");
    for (const secret of secrets) expect(contributor).not.toContain(secret);

    const recipientLink = `/e/${event.uuid}?privateKey=${event.privateKey}`;
    const recipient = await pageOf(await anonymous().raw("GET", recipientLink));
    expect(recipient).toContain("Your video is being prepared");
    expect(recipient).toContain("Cyrus Contributor");
    expect(recipient).toContain("Say thank you");
    expect(recipient).toContain("Report This Page");
    // The recipient's page carries their own key (in their address and the thank-you upload form), nothing else.
    for (const secret of secrets) expect(recipient.replaceAll(event.privateKey, "")).not.toContain(secret);

    const viewOnlyLink = `/e/${event.uuid}?viewKey=${event.viewKey}`;
    const viewOnly = await pageOf(await anonymous().raw("GET", viewOnlyLink));
    expect(viewOnly).toContain("Your video is being prepared");
    expect(viewOnly).toContain("Cyrus Contributor");
    expect(viewOnly).not.toContain("Say thank you");
    expect(viewOnly).toContain("Report This Page");
    for (const secret of secrets) expect(withoutOwnAddress(viewOnly, viewOnlyLink)).not.toContain(secret);

    await db().update(events).set({ status: "closed" }).where(eq(events.id, event.id));
    const closed = await pageOf(await anonymous().raw("GET", `/e/${event.uuid}`));
    expect(closed).toContain("Ana and Bo's birthday");
    expect(closed).toContain("This Chorus is no longer collecting contributions");
    expect(closed).toContain("Report This Page");
    for (const hidden of [...secrets, "Cyrus", "Record a short clip", "favourite memory", "Silva"]) expect(closed).not.toContain(hidden);
  });

  test("a visitor without a log-in gets the page rendered for the same data, with their own nonce, and never an old one", async () => {
    const { client, event } = await organiser();
    const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "";
    const open = async (path: string) => {
      const response = await anonymous().raw("GET", path);
      expect(response.status).toBe(200);
      const nonce = nonceOf(response);
      const html = await response.text();
      expect(nonce.length).toBeGreaterThanOrEqual(16);
      // Every script the page runs carries the nonce its own answer allows, never another's.
      const nonces = [...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);
      expect(nonces.length).toBeGreaterThan(0);
      expect(new Set(nonces)).toEqual(new Set([nonce]));
      return { nonce, html };
    };
    for (const path of [`/e/${event.uuid}`, `/e/${event.uuid}?privateKey=${event.privateKey}`]) {
      const first = await open(path);
      const second = await open(path);
      expect(second.nonce).not.toBe(first.nonce);
      expect(second.html).toBe(first.html.replaceAll(first.nonce, second.nonce));
    }

    // A change to the Chorus, made by whichever process, shows on the next visit.
    await db().update(events).set({ message: "A brand new message" }).where(eq(events.id, event.id));
    const changed = await open(`/e/${event.uuid}`);
    expect(changed.html).toContain("A brand new message");
    expect(changed.html).not.toContain("Record a short clip for Ana and Bo!");
    // The organiser, signed in, sees their own page, never a visitor's.
    expect(await pageOf(await client.raw("GET", `/e/${event.uuid}`))).toContain(event.privateKey);
  });

  test("a page kept for the same data goes out gzipped, its length said, with the answer's own nonce", async () => {
    const { event } = await organiser();
    const get = () =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const request = http.get(`${server.url}/e/${event.uuid}`, { headers: { "accept-encoding": "gzip, deflate, br" } }, (reply) => {
          const chunks: Buffer[] = [];
          reply.on("data", (chunk: Buffer) => chunks.push(chunk));
          reply.on("end", () => resolve({ headers: reply.headers, body: Buffer.concat(chunks) }));
        });
        request.on("error", reject);
      });
    await get();
    const kept = await get();
    expect(kept.headers["content-encoding"]).toBe("gzip");
    expect(kept.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(kept.headers["content-length"])).toBe(kept.body.length);
    const html = zlib.gunzipSync(kept.body).toString("utf8");
    const nonce = /'nonce-([^']+)'/.exec(String(kept.headers["content-security-policy"]))?.[1];
    expect(html).toContain("Add your photos");
    expect(new Set([...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]))).toEqual(new Set([nonce]));
  });

  test("the recipient's page names invitees who contributed, then the shown contributions that are ready, each once", async () => {
    const { event } = await organiser();
    const invite = async (name: string, status: "contributed" | "opened") => {
      const rsvp = await addInvitee(event, parseInvitee({ name, email: uniqueEmail("taking-part") }));
      await db().update(rsvps).set({ status }).where(eq(rsvps.id, rsvp.id));
    };
    await invite("Zoe Invited", "contributed");
    await invite("Olga Opened", "opened");
    const upload = async (contributorName: string, changes: Partial<Media> = {}) => {
      const row = await insertMedia(db(), {
        eventId: event.id,
        purpose: "contribution",
        originalKey: `originals/${crypto.randomUUID()}`,
        originalName: "photo.jpg",
        mimeType: "image/jpeg",
        sizeBytes: 1000,
        contributorName,
      });
      await db()
        .update(media)
        .set({ status: "ready", ...changes })
        .where(eq(media.id, row!.id));
    };
    await upload("Bea Uploader");
    await upload("Hal Hidden", { hidden: true });
    await upload("Pat Pending", { status: "processing" });
    await upload("Ari Archived", { archivedAt: new Date() });
    await upload(" Zoe Invited ");
    await upload("Al Uploader");

    const page = await pageOf(await anonymous().raw("GET", `/e/${event.uuid}?privateKey=${event.privateKey}`));
    const named = ["Zoe Invited", "Bea Uploader", "Al Uploader"].map((name) => page.indexOf(name));
    expect(named.every((at) => at > 0)).toBe(true);
    expect(named).toEqual([...named].sort((a, b) => a - b));
    expect(page.split("Zoe Invited").length - 1).toBe(page.split("Bea Uploader").length - 1);
    for (const left of ["Olga Opened", "Hal Hidden", "Pat Pending", "Ari Archived"]) expect(page).not.toContain(left);
  });

  test("the organiser's page opens with its next step, and folds what is not needed yet", async () => {
    const { client, event } = await organiser();
    const pageNow = async () => pageOf(await client.raw("GET", `/e/${event.uuid}`));
    /** The opening tag of a folded part, to tell whether it starts open. */
    const detailsTag = (page: string, id: string) => page.match(new RegExp(`<details[^>]*id="${id}"[^>]*>`))?.[0] ?? "";

    const fresh = await pageNow();
    expect(fresh.indexOf("What's next")).toBeLessThan(fresh.indexOf('aria-label="On this page"'));
    expect(fresh).toMatch(/<h2 id="next-step-heading">Invite people<\/h2>/);
    for (const id of ["share", "invitees", "message-all", "recipients", "settings", "delete"]) {
      expect(detailsTag(fresh, id)).toMatch(/^<details/);
      expect(detailsTag(fresh, id)).not.toMatch(/\sopen/);
    }
    expect(detailsTag(fresh, "invite")).toMatch(/\sopen/);
    for (const id of ["video", "contributions", "invite", "invitees", "share", "recipients", "deliver", "settings"]) {
      expect(fresh).toContain(`href="#${id}"`);
    }

    // Published but not paid for: paying is next. Paid for: delivering.
    await db().update(events).set({ publishedMedia: crypto.randomUUID() }).where(eq(events.id, event.id));
    expect(await pageNow()).toMatch(/<h2 id="next-step-heading">Pay to deliver it<\/h2>/);
    await db().update(events).set({ paid: true }).where(eq(events.id, event.id));
    expect(await pageNow()).toMatch(/<h2 id="next-step-heading">Deliver it<\/h2>/);

    // Delivered and thanked: the card leads to the recipient's words.
    await db()
      .update(events)
      .set({ status: "delivered", deliveredAt: new Date(), thankYouMessage: "Thank you all!" })
      .where(eq(events.id, event.id));
    const thanked = await pageNow();
    expect(thanked).toMatch(/<h2 id="next-step-heading">They said thank you<\/h2>/);
    expect(thanked).toContain('href="#thank-you"');
    expect(thanked).toMatch(/<blockquote[^>]*id="thank-you"/);
  });

  test("a malformed or unknown uuid is a 404 page", async () => {
    for (const path of ["/e/not-a-uuid", `/e/${crypto.randomUUID()}`]) {
      const response = await anonymous().raw("GET", path);
      expect(response.status).toBe(404);
      expect(await pageOf(response)).toContain("We couldn't find this Chorus");
    }
  });
});

describe("inviting from the event page without JavaScript", () => {
  test("an organiser invites two people and the invitation link opens the Chorus for them", async () => {
    const { client, event } = await organiser();
    const dee = uniqueEmail("dee");
    const eli = uniqueEmail("eli");

    const first = await client.form(`/e/${event.uuid}`, {
      intent: "invite",
      name: "Dee",
      email: dee,
      phone: "",
      viaEmail: "on",
      viaSms: "on",
      sendNow: "on",
    });
    expect(first.status).toBe(200);
    expect(await pageOf(first)).toContain("Dee is on the list, and their invitation is on its way.");
    const second = await client.form(`/e/${event.uuid}`, {
      intent: "invite",
      name: "Eli",
      email: eli,
      phone: "+1 202 555 0143",
      viaEmail: "on",
    });
    expect(second.status).toBe(200);
    expect(await pageOf(second)).toContain("Eli is on the list. Send the invitation when you're ready.");
    expect((await rsvpsOf(event)).map((r) => [r.name, r.viaEmail, r.viaSms])).toEqual([
      ["Dee", true, false],
      ["Eli", true, false],
    ]);

    await expect.poll(() => lastMailTo(dee), { timeout: 15_000 }).toBeTruthy();
    const mail = await lastMailTo(dee);
    const all = await client.form(`/e/${event.uuid}`, { intent: "invite-all" });
    expect(await pageOf(all)).toContain("1 invitation is on the way.");
    expect(mail!.subject).toContain("Ana and Bo's birthday");
    await expect.poll(() => lastMailTo(eli), { timeout: 15_000 }).toBeTruthy();

    const personal = pathIn(mail!.text, "invite=");
    expect(personal).toMatch(new RegExp(`^/e/${event.uuid}\\?invite=`));
    const opened = await anonymous().raw("GET", personal);
    expect(opened.status).toBe(200);
    const page = await pageOf(opened);
    expect(page).toContain("Hi Dee, you're invited!");
    expect(page).toContain("What's your favourite memory with them?");

    const [deeRow] = (await rsvpsOf(event)).filter((r) => r.name === "Dee");
    expect(deeRow!.status).toBe("opened");
    expect(deeRow!.inviteOpenedAt).toBeInstanceOf(Date);
    // Opening the link again changes nothing.
    await anonymous().raw("GET", personal);
    expect((await rsvpRow(deeRow!.id)).inviteOpenedAt).toEqual(deeRow!.inviteOpenedAt);

    const table = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(table).toContain("Opened");
    expect(table).toMatch(/Invited on \d+ \w{3}/);
    expect(table).toContain("Send again");
  });

  test("a duplicate invitee and an invalid e-mail or phone come back with a field error and the values kept", async () => {
    const { client, event } = await organiser();
    const taken = uniqueEmail("taken");
    await addInvitee(event, parseInvitee({ name: "First", email: taken }));

    const duplicate = await client.form(`/e/${event.uuid}`, {
      intent: "invite",
      name: "Second",
      email: taken,
      viaEmail: "on",
      viaSms: "on",
    });
    expect(duplicate.status).toBe(409);
    const duplicatePage = await pageOf(duplicate);
    expect(duplicatePage).toContain("Someone with this e-mail is already invited.");
    expect(inputTag(duplicatePage, "name")).toContain('value="Second"');
    expect(inputTag(duplicatePage, "email")).toContain(`value="${taken}"`);

    const badEmail = await client.form(`/e/${event.uuid}`, { intent: "invite", name: "Gil", email: "gil-at-example", viaEmail: "on" });
    expect(badEmail.status).toBe(400);
    const badEmailPage = await pageOf(badEmail);
    expect(badEmailPage).toContain("Enter a valid e-mail address.");
    expect(inputTag(badEmailPage, "email")).toContain('value="gil-at-example"');
    expect(inputTag(badEmailPage, "name")).toContain('value="Gil"');

    const badPhone = await client.form(`/e/${event.uuid}`, { intent: "invite", name: "Hal", phone: "12345", viaSms: "on", sendNow: "on" });
    expect(badPhone.status).toBe(400);
    const badPhonePage = await pageOf(badPhone);
    expect(badPhonePage).toContain("Enter a valid phone number");
    expect(inputTag(badPhonePage, "phone")).toContain('value="12345"');
    // What was unticked stays unticked.
    expect(inputTag(badPhonePage, "viaEmail")).not.toContain("checked");
    expect(inputTag(badPhonePage, "viaSms")).toContain("checked");

    expect(await rsvpsOf(event)).toHaveLength(1);
  });

  test("people who are not the organiser cannot manage the Chorus", async () => {
    const { event } = await organiser();
    const stranger = new TestClient(server.url);
    await logIn(stranger, (await createUser()).email);
    const attempts: [TestClient, string][] = [
      [anonymous(), `/e/${event.uuid}`],
      [stranger, `/e/${event.uuid}`],
      [anonymous(), `/e/${event.uuid}?privateKey=${event.privateKey}`],
      [anonymous(), `/e/${event.uuid}?viewKey=${event.viewKey}`],
    ];
    for (const [client, path] of attempts) {
      const invite = await client.form(path, { intent: "invite", name: "Mallory", email: uniqueEmail("m"), viaEmail: "on", sendNow: "on" });
      expect(invite.status).toBe(403);
      expect(await pageOf(invite)).toContain("Only the organiser can do that.");
      for (const intent of ["rotate-private-key", "delete", "settings"]) {
        expect((await client.form(path, { intent, title: "Hacked", eventId: event.id })).status).toBe(403);
      }
    }
    const after = await eventRow(event.id);
    expect(after.privateKey).toBe(event.privateKey);
    expect(after.title).toBe("");
    expect(after.deletedAt).toBeNull();
    expect(await rsvpsOf(event)).toHaveLength(0);
  });

  test("the Chorus comes from the address, never from the form", async () => {
    const a = await organiser();
    const b = await organiser();
    // b posts to a's page, naming b's own event in the body: refused, and neither event changes.
    const refused = await b.client.form(`/e/${a.event.uuid}`, { intent: "settings", eventId: b.event.id, id: b.event.id, title: "Moved" });
    expect(refused.status).toBe(403);
    expect((await eventRow(a.event.id)).title).toBe("");
    expect((await eventRow(b.event.id)).title).toBe("");
    // An invitee of a's Chorus is out of reach from b's page.
    const foreign = await addInvitee(a.event, parseInvitee({ name: "Ivo", email: uniqueEmail("ivo") }));
    expect((await b.client.form(`/e/${b.event.uuid}`, { intent: "invite-one", rsvpId: foreign.id })).status).toBe(404);
  });
});

describe("keys, deleting and the recipient", () => {
  test("a new private key turns the old recipient link into the public page", async () => {
    const { client, event } = await organiser();
    const rotated = await client.form(`/e/${event.uuid}`, { intent: "rotate-private-key" });
    expect(rotated.status).toBe(302);
    expect(rotated.headers.get("location")).toBe(`/e/${event.uuid}#share`);
    const { privateKey } = await eventRow(event.id);
    expect(privateKey).not.toBe(event.privateKey);

    const old = await pageOf(await anonymous().raw("GET", `/e/${event.uuid}?privateKey=${event.privateKey}`));
    expect(old).not.toContain("Say thank you");
    expect(old).toContain("Add your photos and clips");
    const fresh = await pageOf(await anonymous().raw("GET", `/e/${event.uuid}?privateKey=${privateKey}`));
    expect(fresh).toContain("Say thank you");
  });

  test("deleting hides the Chorus from everyone else until it is restored", async () => {
    const { client, event } = await organiser();
    expect((await client.form(`/e/${event.uuid}`, { intent: "delete" })).status).toBe(302);
    for (const path of [
      `/e/${event.uuid}`,
      `/e/${event.uuid}?privateKey=${event.privateKey}`,
      `/e/${event.uuid}?viewKey=${event.viewKey}`,
    ]) {
      expect((await anonymous().raw("GET", path)).status).toBe(404);
    }
    expect((await anonymous().form(`/e/${event.uuid}`, { intent: "restore" })).status).toBe(404);
    const own = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(own).toContain("This Chorus is deleted");
    expect(own).toContain("Chorus deleted"); // the toast

    expect((await client.form(`/e/${event.uuid}`, { intent: "restore" })).status).toBe(302);
    expect((await anonymous().raw("GET", `/e/${event.uuid}`)).status).toBe(200);
  });

  test("the recipient writes a thank-you without an account, and their visit is recorded once", async () => {
    const { client, event } = await organiser();
    const link = `/e/${event.uuid}?privateKey=${event.privateKey}`;
    const reply = await anonymous().form(link, { intent: "thank-you", thankYouMessage: "I cried. Thank you all!" });
    expect(reply.status).toBe(200);
    expect(await pageOf(reply)).toContain("Thank you! Your message is saved");
    const saved = await eventRow(event.id);
    expect(saved.thankYouMessage).toBe("I cried. Thank you all!");
    expect(saved.openedAt).toBeInstanceOf(Date);
    await anonymous().form(link, { intent: "thank-you", thankYouMessage: "Again" });
    expect((await eventRow(event.id)).openedAt).toEqual(saved.openedAt);
    expect(await pageOf(await client.raw("GET", `/e/${event.uuid}`))).toContain("Again");
  });

  test("settings are saved from the form and a past deadline is refused", async () => {
    const { client, event } = await organiser();
    const saved = await client.form(`/e/${event.uuid}`, {
      intent: "settings",
      title: "Bo's big day",
      message: "Keep it short",
      prompts: "First question\n\nSecond question",
      deadlineDate: new Date(Date.now() + 20 * DAY).toISOString().slice(0, 10),
      deadlineTime: "18:00",
      timeZone: "Europe/London",
      guestbook: "on",
      status: "active",
    });
    expect(saved.status).toBe(200);
    const row = await eventRow(event.id);
    expect([row.title, row.message, row.prompts, row.guestbook]).toEqual([
      "Bo's big day",
      "Keep it short",
      ["First question", "Second question"],
      true,
    ]);

    const past = await client.form(`/e/${event.uuid}`, {
      intent: "settings",
      title: "Later",
      deadlineDate: "2020-01-01",
      deadlineTime: "10:00",
      timeZone: "Europe/London",
    });
    expect(past.status).toBe(400);
    const page = await pageOf(past);
    expect(page).toContain("The deadline must be in the future.");
    expect(inputTag(page, "title")).toContain('value="Later"');
  });
});

describe("unsubscribing", () => {
  test("looking at the link changes nothing; the button unsubscribes, and no further invitation goes out", async () => {
    const { client, event } = await organiser();
    const email = uniqueEmail("una");
    await client.form(`/e/${event.uuid}`, { intent: "invite", name: "Una", email, viaEmail: "on", sendNow: "on" });
    await expect.poll(() => lastMailTo(email), { timeout: 15_000 }).toBeTruthy();
    const link = pathIn((await lastMailTo(email))!.text, "/unsubscribe/");
    const [una] = await rsvpsOf(event);

    const look = await anonymous().raw("GET", link);
    expect(look.status).toBe(200);
    expect(await pageOf(look)).toContain("Stop messages about this Chorus?");
    expect((await rsvpRow(una!.id)).unsubscribedAt).toBeNull();

    const confirm = await anonymous().form(link, {});
    expect(confirm.status).toBe(200);
    expect(await pageOf(confirm)).toContain("You're unsubscribed");
    expect((await rsvpRow(una!.id)).unsubscribedAt).toBeInstanceOf(Date);

    const again = await client.form(`/e/${event.uuid}`, { intent: "invite-one", rsvpId: una!.id });
    expect(again.status).toBe(400);
    expect(await pageOf(again)).toContain("This person asked not to receive messages about this Chorus.");
    expect(await pageOf(await client.form(`/e/${event.uuid}`, { intent: "invite-all" }))).toContain("Everyone has been invited already.");
    expect(await pageOf(await client.raw("GET", `/e/${event.uuid}`))).toContain("Unsubscribed");

    for (const bad of [link.replace(/t=[^&]+/, "t=wrong"), `/unsubscribe/${una!.id}`, "/unsubscribe/not-an-id?t=x"]) {
      const response = await anonymous().raw("GET", bad);
      expect(response.status).toBe(404);
      expect(await pageOf(response)).toContain("This unsubscribe link is not valid");
      expect((await anonymous().form(bad, {})).status).toBe(404);
    }
  });
});
