import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServer } from "../../server";
import { lastMailTo, PASSWORD, uniqueEmail } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startSmtpSink, unfold } from "../support/smtp-sink";
import { startTestServer } from "../support/test-server";

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let server: RunningServer;
beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ SMTP_URL: smtp.url, MAIL_FROM: "Chorus <hello@chorus.test>" });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

describe("mail over SMTP", () => {
  test("a sign-up sends a real e-mail, plain text and HTML, whose link activates the account", async () => {
    const email = uniqueEmail("smtp");
    const c = new TestClient(server.url);
    expect((await c.post("/api/v2/auth/register", { email, password: PASSWORD })).status).toBe(201);

    await expect.poll(() => smtp.received.find((m) => m.to.includes(email)), { timeout: 5000 }).toBeDefined();
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    expect(mail.from).toBe("hello@chorus.test");
    const raw = unfold(mail.raw);
    expect(raw).toMatch(/Content-Type: text\/plain/i);
    expect(raw).toMatch(/Content-Type: text\/html/i);
    // With SMTP configured nothing goes to the local outbox.
    expect(await lastMailTo(email)).toBeNull();

    const path = raw.match(/\/auth\/activate\/[A-Za-z0-9_-]{43}/)![0];
    expect((await c.get(`/api/v2${path}`)).status).toBe(200);
    expect((await c.post("/api/v2/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  test("the outbox page is off when real mail is configured", async () => {
    expect((await fetch(`${server.url}/dev/outbox`)).status).toBe(404);
  });
});
