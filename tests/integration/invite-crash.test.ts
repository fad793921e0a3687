import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { listRsvps } from "~/models/rsvp.server";
import { loggedInUser } from "../support/accounts";
import { killAppProcesses, startWebProcess, type AppProcess } from "../support/app-processes";
import { createTestEvent } from "../support/events";
import { freePort } from "../support/global-database";
import { jobsOf } from "../support/jobs";
import { makeTempDir } from "../support/media-fixtures";
import { applyTestEnvironment } from "../support/test-server";
import { until } from "../support/wait";

// An organiser adds people and invites them at once, many at a time, and the web process dies
// in the middle (a deploy, an out-of-memory kill). Whatever it had saved must have its
// invitation queued: an invitee left "pending" with no job would never be invited, and adding
// them again would be refused as "already invited".

let environment: Record<string, string>;
let files: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  files = await makeTempDir("invite-crash");
  // No worker: the invitations stay queued, where the test can count them.
  environment = applyTestEnvironment(await freePort(), { RUN_WORKER: "false", DATA_DIR: files.path("data") });
});

afterAll(async () => {
  await killAppProcesses();
  await files?.remove();
});

const INVITEES = 60;

test("invitees saved before the web process was killed all have their invitation queued, and a retry adds the rest", async () => {
  let web: AppProcess = await startWebProcess(environment);
  const { client, user } = await loggedInUser(environment.APP_URL!);
  const event = await createTestEvent(user);
  const emails = Array.from({ length: INVITEES }, (_, index) => `guest-${index}-${event.id.slice(0, 8)}@example.test`);
  const addAndInvite = (email: string, index: number) =>
    client.post("/api/v2/rsvps", { eventId: event.id, name: `Guest ${index}`, email, invite: true }).then(
      (reply) => reply.status,
      () => "cut off" as const,
    );

  // All at once; the process is killed once some are saved, while the others are on their way.
  const answers = Promise.all(emails.map(addAndInvite));
  await until(async () => (await listRsvps(db(), event.id)).length >= 8, {
    timeout: 30_000,
    interval: 20,
    what: "some invitees to be saved",
  });
  await web.kill();
  const firstAnswers = await answers;
  expect(firstAnswers).toContain("cut off");
  expect(firstAnswers.filter((status) => status !== 201 && status !== "cut off")).toEqual([]);

  const uninvited = async () => {
    const saved = await listRsvps(db(), event.id);
    const queued = new Set((await jobsOf("rsvp-invite")).map((job) => job.data.rsvpId));
    return { saved, missing: saved.filter((rsvp) => !queued.has(rsvp.id)).map((rsvp) => rsvp.email) };
  };
  const afterKill = await uninvited();
  expect(afterKill.saved.length).toBeLessThan(INVITEES);
  expect(afterKill.missing).toEqual([]);

  // The organiser sends again whatever got no answer: each is added and invited now.
  web = await startWebProcess(environment);
  const retried = await Promise.all(emails.map((email, index) => (firstAnswers[index] === 201 ? 201 : addAndInvite(email, index))));
  expect(retried.filter((status) => status !== 201 && status !== 409)).toEqual([]);
  const afterRetry = await uninvited();
  expect(afterRetry.saved.map((rsvp) => rsvp.email).sort()).toEqual([...emails].sort());
  expect(afterRetry.missing).toEqual([]);
  // One invitation each.
  const jobs = await jobsOf("rsvp-invite");
  const ofEvent = jobs.filter((job) => afterRetry.saved.some((rsvp) => rsvp.id === job.data.rsvpId));
  expect(ofEvent).toHaveLength(INVITEES);
  await web.kill();
}, 120_000);
