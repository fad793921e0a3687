import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { dropSingleton } from "~/lib/singleton.server";
import { listPublishedVersions } from "~/models/published-media.server";
import { findRenderJob } from "~/models/render-job.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeClip, makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { makeMember } from "../support/payments";
import { addReadyMedia } from "../support/ready-media";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let clipFile: string;

// A render sees a stop at its heartbeat: here every 10 s (the longest JOB_LEASE_SECONDS allows),
// longer than a render of a photo takes, so a stop can come after the render's last piece and before
// its worker would have looked.
const SETTINGS = {
  JOB_POLL_SECONDS: "0.5",
  RENDER_PHOTO_SECONDS: "2",
  RENDER_TITLE_SECONDS: "1.5",
  JOB_HEARTBEAT_SECONDS: "10",
};

beforeAll(async () => {
  files = await makeTempDir("render-stop");
  dropSingleton("storage");
  server = await startTestServer({ ...SETTINGS, DATA_DIR: files.path("data") });
  clipFile = await makeClip(files.path("clip.mp4"), { seconds: 3, audio: false });
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

async function renderUnderWay(media: { photos: number; clips: number }, resolution: "720p" | "1080p") {
  const { user } = await loggedInUser(server.url);
  const event = await createTestEvent(user, { occasion: "birthday" });
  for (let i = 0; i < media.clips; i++) await addReadyMedia(event, "video", files, { name: `Clip ${i}`, source: clipFile });
  for (let i = 0; i < media.photos; i++) await addReadyMedia(event, "photo", files, { name: `Photo ${i}` });
  if (resolution === "1080p") await makeMember(user);
  const admin = await loggedInUser(server.url, "admin");
  const created = await admin.client.post("/api/admin/renderjobs", { eventId: event.id, resolution, publish: true });
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  await until(async () => (await findRenderJob(db(), id))?.status === "running", { timeout: 60_000, what: `render ${id} running` });
  return { event, admin, id };
}

async function expectStoppedWithNothing(id: string, eventId: string) {
  const job = (await findRenderJob(db(), id))!;
  expect(job.status).toBe("cancelled");
  expect(job.outputKey).toBeNull();
  expect(await listPublishedVersions(db(), eventId)).toHaveLength(0);
  expect(await storage().stat(`events/${eventId}/renders/${id}/video.mp4`)).toBeNull();
}

describe("stopping a render", () => {
  test("a render stopped while it works ends cancelled, and the answer says so", { timeout: 120_000 }, async () => {
    const { event, admin, id } = await renderUnderWay({ photos: 2, clips: 2 }, "1080p");
    await until(async () => ((await findRenderJob(db(), id))?.framesDone ?? 0) > 0, { timeout: 60_000, what: "frames made" });
    const stopped = await admin.client.delete(`/api/admin/renderjobs/${id}`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.data).toMatchObject({ id, status: "cancelled", stopping: false });
    await expectStoppedWithNothing(id, event.id);
    expect((await admin.client.delete(`/api/admin/renderjobs/${id}`)).status).toBe(409);
  });

  test(
    "a stop that comes before the render's worker looks again still wins: nothing is published or kept",
    { timeout: 60_000 },
    async () => {
      const { event, admin, id } = await renderUnderWay({ photos: 1, clips: 0 }, "720p");
      const stopped = await admin.client.delete(`/api/admin/renderjobs/${id}`);
      expect(stopped.status).toBe(200);
      expect(stopped.body.data.status).toBe("cancelled");
      await expectStoppedWithNothing(id, event.id);
    },
  );
});
