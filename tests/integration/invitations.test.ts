import { messageDeliveries, rsvps } from "drizzle/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findRsvpByInviteToken, listUninvitedRsvps } from "~/models/rsvp.server";
import { sendInvitation } from "~/services/invitations/invitations.server";
import { sweepReminders } from "~/services/invitations/reminders.server";
import type { RunningServer } from "../../server";
import { createUser, logIn, uniqueEmail } from "../support/accounts";
import { createPaidTestEvent, createTestEvent, inDays } from "../support/events";
import { TestClient } from "../support/http-client";
import { jobsOf, untilJobsFinished } from "../support/jobs";
import { startSmtpSink, unfold } from "../support/smtp-sink";
import { startTestServer } from "../support/test-server";

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: RunningServer;
beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ SMTP_URL: smtp.url, JOB_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "1" });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

async function organiserWithEvent(overrides: Record<string, unknown> = {}, options: { paid?: boolean } = {}) {
  const user = await createUser();
  const client = new TestClient(server.url);
  await logIn(client, user.email);
  return { user, client, event: await (options.paid ? createPaidTestEvent : createTestEvent)(user, overrides) };
}

/** An organiser of a Chorus that is paid for: delivering it is what payment unlocks. */
const organiserWithPaidEvent = () => organiserWithEvent({}, { paid: true });

const inviteLinkIn = (raw: string) => {
  const match = unfold(raw).match(/https?:\/\/[^\s"<>]+\/e\/[0-9a-f-]{36}\?invite=[A-Za-z0-9_-]+/);
  if (!match) throw new Error(`no invitation link in:\n${raw}`);
  return new URL(match[0]);
};

describe("invitations", () => {
  test("an invitation arrives by real SMTP with a personal link that identifies the invitee", async () => {
    const { client, event } = await organiserWithEvent();
    const email = uniqueEmail("guest");
    const added = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Guest One", email, invite: true });
    expect(added.status).toBe(201);

    await expect.poll(() => smtp.to(email).length, { timeout: 15_000 }).toBe(1);
    const mail = smtp.to(email)[0]!;
    expect(unfold(mail.raw)).toMatch(/Subject: .*invited you to Ana's birthday/);
    expect(unfold(mail.raw)).toContain("/unsubscribe/");

    const link = inviteLinkIn(mail.raw);
    expect(link.pathname).toBe(`/e/${event.uuid}`);
    const token = link.searchParams.get("invite")!;
    // The job records the invitation just after the mail leaves: wait for that too.
    await expect.poll(async () => (await findRsvpByInviteToken(db(), event.id, token))?.status, { timeout: 10_000 }).toBe("invited");
    const rsvp = await findRsvpByInviteToken(db(), event.id, token);
    expect(rsvp?.email).toBe(email);
    expect(rsvp?.inviteSentAt).toBeInstanceOf(Date);
    expect((await fetch(link.toString().replace(/^https?:\/\/[^/]+/, server.url))).status).toBe(200);
  });

  test("a temporary SMTP failure is retried and the invitee gets exactly one e-mail", async () => {
    const { client, event } = await organiserWithEvent();
    const email = uniqueEmail("busy");
    smtp.refuseOnce.add(email);
    const added = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Busy Guest", email, invite: true });
    await expect.poll(() => smtp.to(email).length, { timeout: 20_000 }).toBe(1);
    // The ledger is written just after the mail server accepts the message: wait for it.
    const deliveryOf = async () => (await db().select().from(messageDeliveries).where(eq(messageDeliveries.to, email)))[0];
    await expect.poll(async () => (await deliveryOf())?.status, { timeout: 5_000 }).toBe("sent");
    expect(await deliveryOf()).toMatchObject({ status: "sent", attempts: 2 });
    // Once the invitation's job is done with, no attempt of it is left to send another.
    const [job] = await untilJobsFinished("rsvp-invite", { singletonKey: `invite:${added.body.data.id}` });
    expect(job!.state).toBe("completed");
    expect(smtp.to(email)).toHaveLength(1);
  });

  test("running the same invitation job again (a retry after a crash) sends nothing twice", async () => {
    const { event } = await organiserWithEvent();
    const email = uniqueEmail("once");
    const { insertRsvp } = await import("~/models/rsvp.server");
    const rsvp = await insertRsvp(db(), { eventId: event.id, name: "Once", email, phone: "+14155550123", viaEmail: true, viaSms: true });
    await sendInvitation("job-123", rsvp.id);
    await sendInvitation("job-123", rsvp.id);
    await expect.poll(() => smtp.to(email).length).toBe(1);
    const deliveries = await db().select().from(messageDeliveries).where(eq(messageDeliveries.to, "+14155550123"));
    expect(deliveries).toHaveLength(1);
    // A new invitation (another job) is a deliberate resend.
    await sendInvitation("job-456", rsvp.id);
    await expect.poll(() => smtp.to(email).length).toBe(2);
  });

  test("bad invitees get field errors and nothing is sent", async () => {
    const { client, event } = await organiserWithEvent();
    const email = uniqueEmail("dup");
    expect((await client.post("/api/v2/rsvps", { eventId: event.id, name: "A", email })).status).toBe(201);
    const dup = await client.post("/api/v2/rsvps", { eventId: event.id, name: "B", email: email.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body.error.fields.email).toMatch(/already invited/);
    const badPhone = await client.post("/api/v2/rsvps", { eventId: event.id, name: "C", phone: "12345" });
    expect(badPhone.body.error.fields.phone).toMatch(/valid phone/);
    const badEmail = await client.post("/api/v2/rsvps", { eventId: event.id, name: "D", email: "d@" });
    expect(badEmail.body.error.fields.email).toBeDefined();
    const none = await client.post("/api/v2/rsvps", { eventId: event.id, name: "E" });
    expect(none.body.error.fields.email).toMatch(/e-mail address or a mobile/);
    const smsWithoutPhone = await client.post("/api/v2/rsvps", { eventId: event.id, name: "F", email: uniqueEmail(), viaSms: true });
    expect(smsWithoutPhone.body.error.fields.phone).toBeDefined();
  });

  test("invite everyone: only those not yet invited, and the event remembers it", async () => {
    const { client, event } = await organiserWithEvent();
    const emails = [uniqueEmail("a"), uniqueEmail("b")];
    for (const email of emails) await client.post("/api/v2/rsvps", { eventId: event.id, name: email.slice(0, 5), email });
    const reply = await client.post("/api/mail/contributors", { eventId: event.id });
    expect(reply.body.data.queued).toBe(2);
    for (const email of emails) await expect.poll(() => smtp.to(email).length, { timeout: 15_000 }).toBe(1);
    // The job marks an invitation sent just after the mail leaves: wait for that too.
    await expect.poll(async () => (await listUninvitedRsvps(db(), event.id)).length, { timeout: 15_000 }).toBe(0);
    expect((await client.get(`/api/event/${event.id}`)).body.data.event.contributorsNotified).toBe(true);
    expect((await client.post("/api/mail/contributors", { eventId: event.id })).body.data.queued).toBe(0);
  });

  test("an e-mail and a text invitation sent at once leave the event knowing it invited by both", async () => {
    const { client, event } = await organiserWithEvent();
    const byEmail = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Mail", email: uniqueEmail("mail") });
    const byText = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Text", phone: "+44 7911 123457" });
    expect([byEmail.body.data.viaEmail, byText.body.data.viaSms]).toEqual([true, true]);
    // Two invitation jobs working side by side, as the worker runs them: each read the event before
    // the other wrote, and the one that wrote last used to put back the other's flag as it found it.
    await Promise.all([
      sendInvitation(crypto.randomUUID(), byEmail.body.data.id),
      sendInvitation(crypto.randomUUID(), byText.body.data.id),
    ]);
    const view = (await client.get(`/api/event/${event.id}`)).body.data.event;
    expect({ viaEmail: view.viaEmail, viaSms: view.viaSms }).toEqual({ viaEmail: true, viaSms: true });
  });

  test("an unsubscribed invitee gets no more messages", async () => {
    const { client, event } = await organiserWithEvent();
    const email = uniqueEmail("bye");
    const added = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Bye", email });
    await db().update(rsvps).set({ unsubscribedAt: new Date() }).where(eq(rsvps.id, added.body.data.id));
    const invite = await client.post(`/api/v2/rsvps/${added.body.data.id}/invite`);
    expect(invite.status).toBe(400);
    expect(await jobsOf("rsvp-invite", { singletonKey: `invite:${added.body.data.id}` })).toHaveLength(0);
    // Someone still listening, so the broadcast is sent: its job passes over the one who left.
    const listening = uniqueEmail("still");
    await client.post("/api/v2/rsvps", { eventId: event.id, name: "Still here", email: listening });
    const broadcast = await client.post("/api/mail/broadcast", { eventId: event.id, message: "Hello all" });
    expect(broadcast.body.data.recipients).toBe(1);
    const [job] = await untilJobsFinished("event-broadcast", { data: { eventId: event.id } });
    expect(job!.state).toBe("completed");
    expect(smtp.to(listening)).toHaveLength(1);
    expect(smtp.to(email)).toHaveLength(0);
  });
});

describe("reminders", () => {
  test("three days and one day before the deadline, once each, only to those who have not contributed", async () => {
    const { client, event } = await organiserWithEvent({ deadline: inDays(2.5).toISOString() });
    const waiting = uniqueEmail("waiting");
    const done = uniqueEmail("done");
    for (const email of [waiting, done]) await client.post("/api/v2/rsvps", { eventId: event.id, name: "Guest", email, invite: true });
    for (const email of [waiting, done]) await expect.poll(() => smtp.to(email).length, { timeout: 15_000 }).toBe(1);
    // The job records each invitation just after its mail leaves; only then is it safe to backdate.
    const invited = async () =>
      (await db().select().from(rsvps).where(eq(rsvps.eventId, event.id))).filter((r) => r.status === "invited").length;
    await expect.poll(invited, { timeout: 10_000 }).toBe(2);
    await db()
      .update(rsvps)
      .set({ inviteSentAt: inDays(-3) })
      .where(eq(rsvps.eventId, event.id));
    await db().update(rsvps).set({ status: "contributed" }).where(eq(rsvps.email, done));

    await sweepReminders(new Date());
    await expect.poll(() => smtp.to(waiting).length, { timeout: 15_000 }).toBe(2);
    expect(unfold(smtp.to(waiting)[1]!.raw)).toContain("Still time to join in");

    await sweepReminders(new Date());
    const oneDayBefore = new Date(event.deadline.getTime() - 12 * 60 * 60 * 1000);
    await sweepReminders(oneDayBefore);
    await expect.poll(() => smtp.to(waiting).length, { timeout: 15_000 }).toBe(3);
    await sweepReminders(oneDayBefore);
    // Every reminder job the sweeps queued (the repeats included, if they queued any) is done with.
    const waitingRsvp = (await db().select().from(rsvps).where(eq(rsvps.email, waiting)))[0]!;
    const doneRsvp = (await db().select().from(rsvps).where(eq(rsvps.email, done)))[0]!;
    const reminderJobs = await untilJobsFinished("rsvp-reminder", { data: { rsvpId: waitingRsvp.id } }, { atLeast: 2 });
    expect(reminderJobs.every((job) => job.state === "completed")).toBe(true);
    expect(await jobsOf("rsvp-reminder", { data: { rsvpId: doneRsvp.id } })).toHaveLength(0);
    expect(smtp.to(waiting)).toHaveLength(3);
    expect(smtp.to(done)).toHaveLength(1);
  });
});

describe("delivery to the recipient", () => {
  test("deliver now: the recipient gets their private link and the organiser is told", async () => {
    const { client, event } = await organiserWithPaidEvent();
    const noContact = await client.post(`/api/v2/events/${event.id}/deliver`, {});
    expect(noContact.status).toBe(400);
    expect(noContact.body.error.code).toBe("NO_RECIPIENT_CONTACT");

    const recipientEmail = uniqueEmail("recipient");
    await client.post("/api/v2/recipients", { eventId: event.id, firstName: "Bo", email: recipientEmail });
    expect((await client.post(`/api/v2/events/${event.id}/deliver`, {})).status).toBe(200);
    await expect.poll(() => smtp.to(recipientEmail).length, { timeout: 15_000 }).toBe(1);
    expect(unfold(smtp.to(recipientEmail)[0]!.raw)).toContain(`privateKey=${event.privateKey}`);
    await expect
      .poll(async () => (await client.get("/api/v2/notifications")).body.data[0]?.kind, { timeout: 10_000 })
      .toBe("event.delivered");
    expect((await client.get(`/api/event/${event.id}`)).body.data.event.status).toBe("delivered");
  });

  test("deliver later waits for its moment", async () => {
    const { client, event } = await organiserWithPaidEvent();
    const recipientEmail = uniqueEmail("later");
    await client.post("/api/v2/recipients", { eventId: event.id, firstName: "Bo", email: recipientEmail });
    const at = inDays(3);
    const reply = await client.post(`/api/v2/events/${event.id}/deliver`, { at: at.toISOString() });
    expect(reply.body.data.scheduledFor).toBe(at.toISOString());
    expect((await client.post(`/api/v2/events/${event.id}/deliver`, { at: "not a date" })).status).toBe(400);
    // A delivery queued after it but due now goes out while this one keeps waiting: the worker has passed it over.
    const other = await organiserWithPaidEvent();
    const otherEmail = uniqueEmail("now");
    await other.client.post("/api/v2/recipients", { eventId: other.event.id, firstName: "Al", email: otherEmail });
    expect((await other.client.post(`/api/v2/events/${other.event.id}/deliver`, {})).status).toBe(200);
    await untilJobsFinished("event-deliver", { data: { eventId: other.event.id } });
    expect(smtp.to(otherEmail)).toHaveLength(1);
    const waitingJobs = await jobsOf("event-deliver", { data: { eventId: event.id } });
    expect(waitingJobs).toHaveLength(1);
    expect(waitingJobs[0]).toMatchObject({ state: "created", startAfter: at });
    expect(smtp.to(recipientEmail)).toHaveLength(0);
  });
});

describe("the organiser's digest", () => {
  test("contributions arriving close together make one e-mail to the organiser", async () => {
    const { user, event } = await organiserWithEvent();
    const { queueContributionDigest } = await import("~/services/events/digest.server");
    const { insertRsvp, updateRsvp } = await import("~/models/rsvp.server");
    for (const name of ["Lea", "Sam"]) {
      const rsvp = await insertRsvp(db(), {
        eventId: event.id,
        name,
        email: uniqueEmail(name),
        phone: null,
        viaEmail: true,
        viaSms: false,
      });
      await updateRsvp(db(), rsvp.id, { status: "contributed" });
      await queueContributionDigest(event, 500);
    }
    await expect.poll(() => smtp.to(user.email).length, { timeout: 15_000 }).toBe(1);
    const raw = unfold(smtp.to(user.email)[0]!.raw);
    expect(raw).toContain("Lea, Sam");
    await untilJobsFinished("event-digest", { data: { eventId: event.id } }, { atLeast: 1 });
    expect(smtp.to(user.email)).toHaveLength(1);
  });
});
