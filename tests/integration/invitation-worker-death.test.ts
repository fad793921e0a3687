import { messageDeliveries } from "drizzle/schema";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import type { RunningServer } from "../../server";
import { loggedInUser, uniqueEmail } from "../support/accounts";
import { killAppProcesses, startWorkerProcess } from "../support/app-processes";
import { createTestEvent } from "../support/events";
import { untilJobsFinished } from "../support/jobs";
import { makeTempDir } from "../support/media-fixtures";
import { startSmtpSink } from "../support/smtp-sink";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

// A worker dies while it sends an invitation (the mail server had the message and had not
// answered yet). Another worker sends it within a minute — not when pg-boss's 15-minute expiry
// comes round — and the invitee gets it once (docs/decisions/015). The job is handed on when the
// dead worker's lease lapses and a sweep comes round: with the production lease (20 s) and sweep
// (every 5 s) well within the minute. Here both are shorter, so the same code hands it on in seconds.
const SETTINGS = { JOB_LEASE_SECONDS: "6", JOB_HEARTBEAT_SECONDS: "2", JOB_SWEEP_SECONDS: "1" };

let server: RunningServer;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let files: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  files = await makeTempDir("invitation-worker-death");
  smtp = await startSmtpSink();
  // This process only queues: the invitations are sent by worker processes the test starts and
  // kills, with this process's environment (the settings above included).
  server = await startTestServer({ ...SETTINGS, RUN_WORKER: "false", SMTP_URL: smtp.url, DATA_DIR: files.path("data") });
});

afterAll(async () => {
  await killAppProcesses();
  await server?.close();
  await smtp?.close();
  await files?.remove();
});

test("a worker killed while sending an invitation: another worker sends it within a minute, exactly once", async () => {
  const { client, user } = await loggedInUser(server.url);
  const event = await createTestEvent(user);
  const email = uniqueEmail("invitee");
  smtp.holdOnce.add(email);

  const first = await startWorkerProcess({});
  const added = await client.post("/api/v2/rsvps", { eventId: event.id, name: "Hana", email, invite: true });
  expect(added.status).toBe(201);
  // The worker has handed the message over and waits for the mail server's answer.
  await until(() => smtp.held.some((mail) => mail.to.includes(email)), { timeout: 30_000, interval: 100, what: "the held message" });
  await first.kill();
  const killedAt = Date.now();

  await startWorkerProcess({});
  await until(() => smtp.to(email).length > 0, { timeout: 90_000, interval: 200, what: "the invitation from the other worker" });
  const seconds = (Date.now() - killedAt) / 1000;
  console.info(`the invitation was sent by another worker ${seconds.toFixed(1)} s after the first was killed`);
  expect(seconds).toBeLessThan(60);

  const [job] = await untilJobsFinished("rsvp-invite", { data: { rsvpId: added.body.data.id } });
  expect(job!.state).toBe("completed");
  expect(smtp.to(email)).toHaveLength(1);
  const deliveries = await db()
    .select()
    .from(messageDeliveries)
    .where(like(messageDeliveries.key, `invite:${job!.id}:%`));
  expect(deliveries).toMatchObject([{ status: "sent", channel: "email" }]);
}, 150_000);
