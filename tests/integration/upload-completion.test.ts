import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Event } from "drizzle/schema";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { findMediaByUploadId } from "~/models/media.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { allowConsoleError } from "../support/fail-on-console-error";
import { jobsOf } from "../support/jobs";
import { makePhoto, makeTempDir } from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";
import { create, headReply, patch, TusRequestError } from "../support/tus-client";
import { until } from "../support/wait";

// The last byte of an upload reaches the disk, then recording it fails: the process died, or the
// database refused the write. tus-js-client's retry asks for the offset, hears it equals the
// length, and tells the contributor it worked. It must then be true: the HEAD records what the
// last chunk could not, and a sweep records complete uploads nobody asks about.

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let event: Event;
let photo: Buffer;

/** The database refuses the next `count` media rows, with this SQLSTATE (a test-only trigger). */
async function refuseMediaRows(count: number, sqlState: string) {
  await db().execute(sql.raw(`alter sequence test_refused_media_rows restart`));
  await db().execute(
    sql.raw(`create or replace function test_refuse_media_row() returns trigger language plpgsql as $$
      begin
        if nextval('test_refused_media_rows') <= ${count} then
          raise exception 'media rows are refused for the test' using errcode = '${sqlState}';
        end if;
        return new;
      end $$`),
  );
}

/** The job queue refuses the next `count` media processing jobs (a test-only trigger on its job table). */
async function refuseMediaJobs(count: number) {
  await db().execute(sql.raw(`alter sequence test_refused_media_jobs restart`));
  await db().execute(
    sql.raw(`create or replace function test_refuse_media_job() returns trigger language plpgsql as $$
      begin
        if new.name like 'media-%' and nextval('test_refused_media_jobs') <= ${count} then
          raise exception 'media jobs are refused for the test' using errcode = 'P0001';
        end if;
        return new;
      end $$`),
  );
}

beforeAll(async () => {
  files = await makeTempDir("upload-completion");
  // No worker here: processing jobs stay queued, where the test counts them. Sweeps every second,
  // taking uploads whose last byte arrived two seconds ago.
  server = await startTestServer({ RUN_WORKER: "false", DATA_DIR: files.path("data"), UPLOAD_FINISH_SWEEP_SECONDS: "1" });
  await db().execute(sql`create sequence if not exists test_refused_media_rows`);
  await refuseMediaRows(0, "P0001");
  await db().execute(sql`
    create or replace trigger test_refuse_media_row before insert on media
    for each row execute function test_refuse_media_row()`);
  await db().execute(sql`create sequence if not exists test_refused_media_jobs`);
  await refuseMediaJobs(0);
  await db().execute(
    sql.raw(`create or replace trigger test_refuse_media_job before insert on ${process.env.JOB_QUEUE_SCHEMA}.job
      for each row execute function test_refuse_media_job()`),
  );
  const { user } = await loggedInUser(server.url);
  event = await createTestEvent(user);
  photo = await fs.readFile(await makePhoto(files.path("photo.jpg"), { width: 400, height: 300 }));
});

afterAll(async () => {
  await db().execute(sql.raw(`drop trigger if exists test_refuse_media_job on ${process.env.JOB_QUEUE_SCHEMA}.job`));
  await db().execute(sql`drop function if exists test_refuse_media_job()`);
  await db().execute(sql`drop sequence if exists test_refused_media_jobs`);
  await db().execute(sql`drop trigger if exists test_refuse_media_row on media`);
  await db().execute(sql`drop function if exists test_refuse_media_row()`);
  await db().execute(sql`drop sequence if exists test_refused_media_rows`);
  await server?.close();
  await files?.remove();
});

beforeEach(async () => {
  await refuseMediaRows(0, "P0001");
  await refuseMediaJobs(0);
});

const metadata = () => ({
  eventUuid: event.uuid,
  filename: "garden.jpg",
  filetype: "image/jpeg",
  contributorName: "Noor",
  caption: "From the garden",
  purpose: "contribution",
  uploadToken: crypto.randomBytes(24).toString("base64url"),
});

/** Sends the whole photo in one chunk, whose answer is the failure of its intake. */
async function uploadWhoseIntakeFails() {
  const upload = await create(server.url, photo.byteLength, metadata());
  const failed = await patch(server.url, upload, 0, photo).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(TusRequestError);
  const id = path.basename(upload);
  // Every byte is on disk; no contribution was recorded.
  expect((await fs.stat(path.join(files.path("data"), "storage", "tus", id))).size).toBe(photo.byteLength);
  expect(await findMediaByUploadId(db(), id)).toBeNull();
  return { upload, id, status: (failed as TusRequestError).status };
}

async function expectOneContribution(id: string) {
  const media = (await findMediaByUploadId(db(), id))!;
  expect(media).toMatchObject({ eventId: event.id, contributorName: "Noor", caption: "From the garden", sizeBytes: photo.byteLength });
  const queued = await jobsOf("media-small", { data: { mediaId: media.id } });
  expect(queued).toHaveLength(1);
  return media;
}

test("a client resuming a complete upload whose intake failed: the HEAD records it, and only then answers the full offset", async () => {
  allowConsoleError();
  // The last chunk's intake fails, and so does the first HEAD's: never a full offset without a row.
  await refuseMediaRows(2, "P0001");
  const { upload, id, status } = await uploadWhoseIntakeFails();
  expect(status).toBe(500);
  const refused = await headReply(server.url, upload);
  expect(refused.status).toBe(500);
  expect(await findMediaByUploadId(db(), id)).toBeNull();

  const resumed = await headReply(server.url, upload);
  expect(resumed).toMatchObject({ status: 200, offset: photo.byteLength });
  const media = await expectOneContribution(id);
  expect(resumed.mediaUuid).toBe(media.mediaUuid);

  // Asked again, it names the same item and records nothing more.
  expect(await headReply(server.url, upload)).toMatchObject({ status: 200, offset: photo.byteLength, mediaUuid: media.mediaUuid });
  await expectOneContribution(id);
});

test("a complete upload whose intake failed and that nobody asks about again is recorded by the sweep", async () => {
  // The database was away when the last chunk arrived: the browser heard 503 and was closed.
  await refuseMediaRows(1, "57P03");
  const { id, status } = await uploadWhoseIntakeFails();
  expect(status).toBe(503);
  await until(() => findMediaByUploadId(db(), id), { timeout: 20_000, interval: 200, what: "the sweep to record the upload" });
  await expectOneContribution(id);
});

test("an upload whose processing could not be queued leaves no item waiting for ever: the HEAD records it with its job", async () => {
  allowConsoleError();
  // The row was written and the job refused: neither stays (uploadWhoseIntakeFails finds no row).
  await refuseMediaJobs(1);
  const { upload, id, status } = await uploadWhoseIntakeFails();
  expect(status).toBe(500);
  const resumed = await headReply(server.url, upload);
  expect(resumed).toMatchObject({ status: 200, offset: photo.byteLength });
  const media = await expectOneContribution(id);
  expect(resumed.mediaUuid).toBe(media.mediaUuid);
});
