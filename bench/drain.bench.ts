// Job drain benchmark: node --import tsx bench/drain.bench.ts [SETTING=value ...]   (after `npx remix build`)
//
// Starts the real server in this process (it works the jobs too, as `npm start` does) on a
// throw-away embedded PostgreSQL, with a real SMTP server on loopback as the mail server. A Chorus
// with 200 invitees, then "invite all" (POST /api/mail/contributors): prints the time from that
// request until the SMTP server holds all 200 invitations, and invitations per second. Settings
// given on the command line apply to the server (JOB_MESSAGE_SLOTS=1, say, for one slot per queue).
// Target: 200 invitations within 30 s by one worker.
import os from "node:os";
import { sql } from "drizzle-orm";
import { db } from "~/lib/db.server";
import { insertRsvp } from "~/models/rsvp.server";
import { createUser, logIn, uniqueEmail } from "../tests/support/accounts";
import { createTestEvent } from "../tests/support/events";
import { TestClient } from "../tests/support/http-client";
import { startSmtpSink } from "../tests/support/smtp-sink";
import { startBenchServer, withBenchFolder } from "./bench-server";

const INVITEES = 200;
const TIMEOUT_MS = 15 * 60 * 1000;

async function bench(root: string, cleanUps: Array<() => Promise<unknown>>) {
  const overrides = Object.fromEntries(
    process.argv
      .slice(2)
      .filter((arg) => arg.includes("="))
      .map((arg) => [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]),
  );
  const smtp = await startSmtpSink();
  cleanUps.push(() => smtp.close());
  const server = await startBenchServer(root, cleanUps, { NODE_ENV: "production", RUN_WORKER: "true", SMTP_URL: smtp.url, ...overrides });

  const user = await createUser();
  const client = new TestClient(server.url);
  await logIn(client, user.email);
  const event = await createTestEvent(user);
  const emails = new Set<string>();
  for (let index = 0; index < INVITEES; index++) {
    const email = uniqueEmail(`invitee${index}`);
    emails.add(email);
    await insertRsvp(db(), { eventId: event.id, name: `Invitee ${index}`, email, phone: null, viaEmail: true, viaSms: false });
  }

  const load = os.loadavg().map((value) => value.toFixed(1));
  console.log(`Chorus drain bench — Node ${process.version}, ${os.cpus().length} CPUs, load average ${load.join(" ")}`);
  console.log(
    `settings: ${
      Object.keys(overrides).length
        ? Object.entries(overrides)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ")
        : "defaults"
    }`,
  );

  const started = performance.now();
  const reply = await client.post("/api/mail/contributors", { eventId: event.id });
  if (reply.status !== 202 || reply.body.data.queued !== INVITEES)
    throw new Error(`invite all: ${reply.status} ${JSON.stringify(reply.body)}`);
  const queuedMs = performance.now() - started;
  const arrived = () => smtp.received.filter((mail) => mail.to.some((to) => emails.has(to))).length;
  const marks: string[] = [];
  let nextMark = 50;
  for (;;) {
    const count = arrived();
    while (count >= nextMark && nextMark <= INVITEES) {
      marks.push(`${nextMark} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
      nextMark += 50;
    }
    if (count >= INVITEES) break;
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`only ${count} of ${INVITEES} invitations after ${TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`"invite all" answered in ${(queuedMs / 1000).toFixed(2)} s (${INVITEES} jobs queued)`);
  console.log(`mails: ${marks.join(", ")}`);
  console.log(`${INVITEES} invitations in ${seconds.toFixed(1)} s: ${(INVITEES / seconds).toFixed(1)} jobs/s (target: within 30 s)`);
  // How long each job ran (started → completed), from the queue's own table.
  const jobs = await db().execute<{ ms: number }>(
    sql`select extract(epoch from (completed_on - started_on)) * 1000 as ms from ${sql.identifier(process.env.JOB_QUEUE_SCHEMA ?? "pgboss")}.job
        where name = 'rsvp-invite' and state = 'completed' order by ms`,
  );
  const durations = jobs.map((row) => Number(row.ms));
  if (durations.length) {
    const at = (share: number) => durations[Math.min(durations.length - 1, Math.floor(share * durations.length))]!.toFixed(0);
    console.log(`one job, started to completed: median ${at(0.5)} ms, 90th percentile ${at(0.9)} ms (${durations.length} jobs)`);
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}`,
  );
}

await withBenchFolder(bench);
process.exit(0);
