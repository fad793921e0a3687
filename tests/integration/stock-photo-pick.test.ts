import http from "node:http";
import { userProfiles, type Event, type Media, type User } from "drizzle/schema";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "~/lib/db.server";
import { resetEnvCache } from "~/lib/env.server";
import { dropSingleton } from "~/lib/singleton.server";
import { findMediaById, listMediaOfEvent } from "~/models/media.server";
import { addStockPhoto } from "~/services/media/stock-photo-pick.server";
import { storage } from "~/services/media/storage.server";
import type { RunningServer } from "../../server";
import { makeTempDir } from "../media/support/media-fixtures";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";
import { until } from "../support/wait";

let server: RunningServer;
let files: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  files = await makeTempDir("stock-pick");
  dropSingleton("storage");
  server = await startTestServer({ JOB_POLL_SECONDS: "0.5", DATA_DIR: files.path("data") });
});
afterAll(async () => {
  await server?.close();
  dropSingleton("storage");
  await files?.remove();
});

async function organiser() {
  const { client, user } = await loggedInUser(server.url);
  await db().update(userProfiles).set({ firstName: "Olga", lastName: "Organiser" }).where(eq(userProfiles.userId, user.id));
  return { client, user, event: await createTestEvent(user) };
}

async function pageOf(response: Response) {
  return (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

async function settled(id: string): Promise<Media> {
  return until(
    async () => {
      const record = await findMediaById(db(), id);
      return record?.status === "ready" || record?.status === "failed" ? record : null;
    },
    { what: `media ${id} to settle` },
  );
}

const contributions = (event: Event) => listMediaOfEvent(db(), event.id, { purpose: "contribution" });

describe("the organiser's stock photo picker on /e/{uuid}", () => {
  test("a search by address lists the library's photos, page by page, each with an Add button", async () => {
    const { client, event } = await organiser();
    const closed = await pageOf(await client.raw("GET", `/e/${event.uuid}`));
    expect(closed).toContain("Add a stock photo");
    expect(closed).not.toContain("Balloons at sunset");

    const balloons = await pageOf(await client.raw("GET", `/e/${event.uuid}?stock=balloons`));
    for (const text of [
      "2 photos for “balloons”",
      "Balloons in a blue sky",
      "Balloons at sunset",
      'src="/stock/balloons-sky/400.jpg"',
      'value="balloons-sky"',
      "Add to the video",
    ]) {
      expect(balloons).toContain(text);
    }
    expect(balloons).not.toContain("Gold confetti");

    const second = await pageOf(await client.raw("GET", `/e/${event.uuid}?stock=&stockPage=2`));
    expect(second).toContain("Page 2 of 2");
    expect(second).toContain("Warm lights");
    expect(second).not.toContain("Balloons in a blue sky");

    const nothing = await pageOf(await client.raw("GET", `/e/${event.uuid}?stock=zebra`));
    expect(nothing).toContain("No stock photos match “zebra”");
  });

  test("adding a photo makes a contribution from the organiser that is processed like an upload", async () => {
    const { client, user, event } = await organiser();
    const added = await client.form(`/e/${event.uuid}?stock=balloons`, {
      intent: "stock-add",
      photoId: "balloons-sky",
      caption: "  Happy birthday!  ",
    });
    expect(added.status).toBe(200);
    expect(await pageOf(added)).toContain("Added. It joins the contributions as soon as it's prepared.");

    const [record] = await contributions(event);
    expect(record).toMatchObject({
      contributorName: "Olga Organiser",
      caption: "Happy birthday!",
      originalName: "Balloons in a blue sky.jpg",
      mimeType: "image/jpeg",
      uploaderId: user.id,
      purpose: "contribution",
    });
    const ready = await settled(record!.id);
    expect(ready).toMatchObject({ status: "ready", kind: "photo", width: 1920, height: 1080 });
    const original = await storage().localCopy(ready.originalKey);
    try {
      expect(await sharp(original.path).metadata()).toMatchObject({ format: "jpeg", width: 1920, height: 1080 });
    } finally {
      await original.release();
    }
    expect(ready.renditionKey).toBeTruthy();
  });

  test("someone other than the organiser is refused, and nothing is added", async () => {
    const { event } = await organiser();
    const { client: stranger } = await loggedInUser(server.url);
    const refused = await stranger.form(`/e/${event.uuid}`, { intent: "stock-add", photoId: "balloons-sky" });
    expect(refused.status).toBe(403);
    expect(await pageOf(refused)).toContain("Only the organiser can do that.");
    const anonymous = await new TestClient(server.url).form(`/e/${event.uuid}`, { intent: "stock-add", photoId: "balloons-sky" });
    expect(anonymous.status).toBe(403);
    expect(await contributions(event)).toEqual([]);
  });

  test("an unknown photo is a clear 404, and an address in place of an id a 400", async () => {
    const { client, event } = await organiser();
    const unknown = await client.form(`/e/${event.uuid}`, { intent: "stock-add", photoId: "no-such-photo" });
    expect(unknown.status).toBe(404);
    expect(await pageOf(unknown)).toContain("We couldn't find that stock photo. Search again and pick one from the results.");

    for (const photoId of ["http://169.254.169.254/latest/meta-data", "../../etc/passwd", ""]) {
      const refused = await client.form(`/e/${event.uuid}`, { intent: "stock-add", photoId });
      expect(refused.status).toBe(400);
    }
    expect(await contributions(event)).toEqual([]);
  });
});

describe("a pick from Unsplash", () => {
  // Unsplash's API and image host stood in for on loopback: the app must look the photo up by
  // its id, report the pick on its download link, and fetch the image from the API's address.
  let fake: http.Server;
  let base = "";
  const seen: string[] = [];
  let jpeg: Buffer;

  beforeAll(async () => {
    jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#3366cc" } })
      .jpeg()
      .toBuffer();
    fake = http.createServer((req, res) => {
      seen.push(req.url!);
      if (req.url === "/photos/abc123") {
        res.setHeader("content-type", "application/json");
        return res.end(
          JSON.stringify({
            id: "abc123",
            description: "Cake",
            width: 4000,
            height: 3000,
            urls: { thumb: `${base}/images/abc123?w=200`, regular: `${base}/images/abc123?w=1080&q=80` },
            user: { name: "Jo Photo", links: { html: "https://unsplash.example/@jo" } },
            links: { download_location: `${base}/photos/abc123/download` },
          }),
        );
      }
      if (req.url === "/photos/abc123/download") {
        res.setHeader("content-type", "application/json");
        return res.end(JSON.stringify({ url: `${base}/images/abc123` }));
      }
      if (req.url!.startsWith("/images/abc123")) {
        res.setHeader("content-type", "image/jpeg");
        return res.end(jpeg);
      }
      res.statusCode = 404;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ errors: ["Couldn't find Photo"] }));
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  async function withUnsplash<T>(run: () => Promise<T>) {
    const saved = { ...process.env };
    Object.assign(process.env, { UNSPLASH_ACCESS_KEY: "test-key", UNSPLASH_API_URL: `${base}/` });
    resetEnvCache();
    try {
      return await run();
    } finally {
      process.env = saved;
      resetEnvCache();
    }
  }

  test("is looked up by id, reported as picked, stored with its attribution; an unknown id is a 404", async () => {
    const { user, event } = await organiser();
    const record = await withUnsplash(() => addStockPhoto(event, user as User, { photoId: "abc123", caption: "" }));
    expect(seen).toEqual(expect.arrayContaining(["/photos/abc123", "/photos/abc123/download"]));
    const image = seen.find((url) => url.startsWith("/images/abc123?"))!;
    expect(new URL(image, base).searchParams.get("w")).toBe("1920");
    expect(record).toMatchObject({
      originalName: "Photo by Jo Photo on Unsplash.jpg",
      contributorName: "Olga Organiser",
      mimeType: "image/jpeg",
      sizeBytes: jpeg.length,
    });
    expect((await settled(record.id)).status).toBe("ready");

    await expect(withUnsplash(() => addStockPhoto(event, user as User, { photoId: "gone", caption: "" }))).rejects.toMatchObject({
      status: 404,
    });
  });
});
