import { readdir, readFile } from "node:fs/promises";
import type { User } from "drizzle/schema";
import { sql } from "drizzle-orm";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BUILT_IN_TRACKS } from "~/domain/built-in-tracks";
import { db } from "~/lib/db.server";
import { runFfmpeg } from "~/media/run.server";
import { findArrangement } from "~/models/arrangement.server";
import { findEventByUuid } from "~/models/event.server";
import { findTrackBySlug, insertTrack } from "~/models/track.server";
import { ensureBuiltInTracks } from "~/services/arrange/tracks.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { allowConsoleError } from "../support/fail-on-console-error";
import { TestClient } from "../support/http-client";
import { makeTempDir } from "../support/media-fixtures";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;
let tone: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  files = await makeTempDir("tracks-api");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data") });
  const file = files.path("tone.m4a");
  await runFfmpeg([
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=392:duration=5",
    "-af",
    "volume=-20dB",
    "-c:a",
    "aac",
    "-b:a",
    "64k",
    file,
  ]);
  tone = new Uint8Array(await readFile(file));
});
afterAll(async () => {
  await server?.close();
  await files?.remove();
});

type TrackJson = {
  id: string;
  title: string;
  status: string;
  builtIn: boolean;
  durationSeconds: number | null;
  loudnessLufs: number | null;
  waveform: number[];
  failureReason: string | null;
  audioUrl: string;
};

const loggedIn = () => loggedInUser(server.url);

function upload(client: TestClient, path: string, bytes: Uint8Array<ArrayBuffer>, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new Blob([bytes], { type: "audio/mp4" }), name);
  return client.raw("POST", path, { body: form });
}

async function json<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** Polls a track through the API until processing has settled. */
async function settled(client: TestClient, id: string, timeout = 90_000): Promise<TrackJson> {
  let status: string | undefined;
  return until(
    async () => {
      const track = (await client.get(`/api/v2/tracks/${id}`)).body.data as TrackJson;
      status = track.status;
      return track.status === "ready" || track.status === "failed" ? track : null;
    },
    { timeout, interval: 300, what: () => `track ${id}, still ${status}` },
  );
}

function listen(cookie: string) {
  const socket: Socket = connect(`${server.url}/users`, {
    transports: ["websocket"],
    extraHeaders: { cookie },
    forceNew: true,
    reconnection: false,
  });
  const heard: Record<string, unknown>[] = [];
  socket.on("track:updated", (fields: Record<string, unknown>) => heard.push(fields));
  const ready = new Promise<void>((resolve) => socket.on("session:ready", () => resolve()));
  return { socket, heard, ready };
}

describe("the track library", () => {
  test("lists the built-in tracks to a logged-in user, measured once at start and playable with ranges", async () => {
    expect((await new TestClient(server.url).get("/api/v2/tracks")).status).toBe(401);
    const { client } = await loggedIn();
    const list = (await client.get("/api/v2/tracks")).body.data as TrackJson[];
    expect(list.slice(0, BUILT_IN_TRACKS.length).map((t) => [t.title, t.builtIn])).toEqual(BUILT_IN_TRACKS.map((t) => [t.title, true]));

    const first = await settled(client, list[0]!.id);
    expect(first).toMatchObject({ status: "ready", failureReason: null });
    expect(first.durationSeconds).toBeGreaterThan(60);
    expect(first.waveform).toHaveLength(200);

    const audio = await client.raw("GET", first.audioUrl, { headers: { range: "bytes=0-99" } });
    expect(audio.status).toBe(206);
    expect(audio.headers.get("content-type")).toBe("audio/mp4");
    expect(audio.headers.get("content-disposition")).toBeNull();
    expect((await audio.arrayBuffer()).byteLength).toBe(100);

    // A second start finds them measured: nothing is queued or changed again.
    const before = await findTrackBySlug(db(), BUILT_IN_TRACKS[0]!.slug);
    await ensureBuiltInTracks();
    const after = await findTrackBySlug(db(), BUILT_IN_TRACKS[0]!.slug);
    expect(after).toEqual(before);
  });

  test("an organiser's upload is processed to ready, heard live, and seen by nobody else", async () => {
    const owner = await loggedIn();
    const live = listen(owner.client.cookieHeader());
    await live.ready;

    const reply = await upload(owner.client, "/api/v2/tracks", tone, "our-song.m4a", { title: "Our song" });
    expect(reply.status).toBe(202);
    const created = (await json(reply)).data as TrackJson;
    expect(created).toMatchObject({ title: "Our song", builtIn: false, status: "uploaded", waveform: [] });

    const ready = await settled(owner.client, created.id);
    expect(ready.status).toBe("ready");
    expect(ready.durationSeconds).toBeGreaterThan(4.9);
    expect(ready.durationSeconds).toBeLessThan(5.2);
    expect(Math.abs(ready.loudnessLufs! + 16)).toBeLessThan(1);
    expect(ready.waveform).toHaveLength(200);
    await expect.poll(() => live.heard.find((f) => f.id === created.id && f.status === "ready")).toBeTruthy();
    expect(live.heard.filter((f) => f.id === created.id).map((f) => f.status)).toEqual(["processing", "ready"]);
    expect(live.heard.find((f) => f.status === "ready")).toMatchObject({
      durationSeconds: ready.durationSeconds,
      waveform: ready.waveform,
    });
    expect(live.heard.some((f) => "renditionKey" in f)).toBe(false);
    live.socket.close();

    const mine = (await owner.client.get("/api/v2/tracks")).body.data as TrackJson[];
    expect(mine.at(-1)).toMatchObject({ id: created.id, title: "Our song" });
    expect((await owner.client.raw("GET", ready.audioUrl)).status).toBe(200);

    const other = await loggedIn();
    expect((await other.client.get(`/api/v2/tracks/${created.id}`)).status).toBe(404);
    expect(((await other.client.get("/api/v2/tracks")).body.data as TrackJson[]).some((t) => t.id === created.id)).toBe(false);
    expect((await other.client.raw("GET", ready.audioUrl)).status).toBe(404);
    expect((await other.client.delete(`/api/v2/tracks/${created.id}`)).status).toBe(404);
  });

  test("deleting an own track takes it out of the library; built-ins cannot be deleted", async () => {
    const { user, client } = await loggedIn();
    const track = await insertTrack(db(), { ownerId: user.id, title: "Old tune", originalName: "old.mp3", sizeBytes: 10 });
    expect((await client.delete(`/api/v2/tracks/${track.id}`)).status).toBe(200);
    expect(((await client.get("/api/v2/tracks")).body.data as TrackJson[]).some((t) => t.id === track.id)).toBe(false);
    expect((await client.get(`/api/v2/tracks/${track.id}`)).status).toBe(404);

    const builtIn = (await findTrackBySlug(db(), BUILT_IN_TRACKS[1]!.slug))!;
    const refused = await client.delete(`/api/v2/tracks/${builtIn.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");
    expect((await client.delete("/api/v2/tracks/not-an-id")).status).toBe(404);
  });

  test("a file that is not audio is refused by its content with a reason, and nothing is kept", async () => {
    const { client } = await loggedIn();
    const text = new TextEncoder().encode("These are the lyrics, not the song.\n".repeat(100));
    const reply = await upload(client, "/api/v2/tracks", text, "song.mp3");
    expect(reply.status).toBe(400);
    const body = await json(reply);
    expect(body.error.code).toBe("UNSUPPORTED_TYPE");
    expect(body.error.fields.file).toMatch(/not a music file/);
    expect(((await client.get("/api/v2/tracks")).body.data as TrackJson[]).filter((t) => !t.builtIn)).toEqual([]);

    const missing = await client.raw("POST", "/api/v2/tracks", { body: new FormData() });
    expect(missing.status).toBe(400);
  });

  test("a track whose processing could not be queued is not kept half: the upload fails and the library is as before", async () => {
    allowConsoleError();
    const { client } = await loggedIn();
    const queue = process.env.JOB_QUEUE_SCHEMA;
    // A test-only trigger: the job queue refuses the track's processing job.
    await db().execute(
      sql.raw(`create or replace function test_refuse_track_job() returns trigger language plpgsql as $$
        begin
          if new.name = 'track-process' then raise exception 'track jobs are refused for the test'; end if;
          return new;
        end $$`),
    );
    await db().execute(
      sql.raw(
        `create or replace trigger test_refuse_track_job before insert on ${queue}.job for each row execute function test_refuse_track_job()`,
      ),
    );
    const storedTracks = async () =>
      (await readdir(files.path("data/storage/tracks"), { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => `${entry.parentPath}/${entry.name}`);
    const before = await storedTracks();
    try {
      const reply = await upload(client, "/api/v2/tracks", tone, "half-kept.m4a");
      expect(reply.status).toBe(500);
    } finally {
      await db().execute(sql.raw(`drop trigger if exists test_refuse_track_job on ${queue}.job`));
      await db().execute(sql`drop function if exists test_refuse_track_job()`);
    }
    expect(((await client.get("/api/v2/tracks")).body.data as TrackJson[]).filter((t) => !t.builtIn)).toEqual([]);
    // Nor its file.
    expect((await storedTracks()).sort()).toEqual(before.sort());
  });

  test("an organiser keeps at most 20 tracks of their own", async () => {
    const { user, client } = await loggedIn();
    for (let i = 0; i < 20; i++) await insertTrack(db(), { ownerId: user.id, title: `Tune ${i}`, originalName: "t.mp3", sizeBytes: 1 });
    const reply = await upload(client, "/api/v2/tracks", tone, "one-more.m4a");
    expect(reply.status).toBe(409);
    expect((await json(reply)).error.code).toBe("TOO_MANY_TRACKS");
  });
});

describe("the arrange page's music", () => {
  let organiser: { user: User; client: TestClient };
  let page: string;

  beforeAll(async () => {
    organiser = await loggedIn();
    page = `/e/${(await createTestEvent(organiser.user)).uuid}/arrange`;
  });

  test("shows the tracks with a player each, and chooses one with a plain form", async () => {
    const html = await (await organiser.client.raw("GET", page)).text();
    expect(html).toContain("Warm Sunday");
    expect(html).toMatch(/<audio[^>]*preload="none"/);

    const slowLight = (await findTrackBySlug(db(), "slow-light"))!;
    await settled(organiser.client, slowLight.id);
    const chose = await organiser.client.form(page, { intent: "music-choose", trackId: slowLight.id });
    expect(chose.status).toBe(302);
    expect(chose.headers.get("location")).toBe(`${page}#music`);
    expect((await findArrangement(db(), await eventIdOf(page))).trackId).toBe(slowLight.id);
  });

  test("music settings are checked field by field and saved as a fraction of full volume", async () => {
    const refused = await organiser.client.form(page, {
      intent: "music-settings",
      startSeconds: "-1",
      fadeOutSeconds: "11",
      volume: "150",
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("The music cannot start before the beginning of the track.");
    expect(html).toContain("Fade out for at most 10 seconds.");
    expect(html).toContain("The volume goes from 0 to 100 %.");

    const pastEnd = await organiser.client.form(page, {
      intent: "music-settings",
      startSeconds: "5000",
      fadeOutSeconds: "2",
      volume: "50",
    });
    expect(pastEnd.status).toBe(400);
    expect(await pastEnd.text()).toContain("start before its end");

    const saved = await organiser.client.form(page, { intent: "music-settings", startSeconds: "12.5", fadeOutSeconds: "4", volume: "65" });
    expect(saved.status).toBe(302);
    expect(await findArrangement(db(), await eventIdOf(page))).toMatchObject({
      musicStartSeconds: 12.5,
      musicFadeOutSeconds: 4,
      musicVolume: 0.65,
    });
  });

  test("the page's upload form adds an own track through the same checks", async () => {
    const added = await upload(organiser.client, page, tone, "birthday.m4a", { intent: "music-upload", title: "Birthday tune" });
    expect(added.status).toBe(302);
    const mine = ((await organiser.client.get("/api/v2/tracks")).body.data as TrackJson[]).filter((t) => !t.builtIn);
    expect(mine.map((t) => t.title)).toEqual(["Birthday tune"]);

    const refused = await upload(organiser.client, page, new TextEncoder().encode("not music at all"), "x.mp3", { intent: "music-upload" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("not a music file we can read");
    await settled(organiser.client, mine[0]!.id);
  });
});

async function eventIdOf(page: string) {
  return (await findEventByUuid(db(), page.split("/")[2]!))!.id;
}
