import http from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { unsplashProvider } from "~/integrations/stock-photos/unsplash.server";
import type { RunningServer } from "../../server";
import { createUser, logIn } from "../support/accounts";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

describe("the stock photo library shipped with the app", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("organisers search it by word, page through it, and its pictures are real JPEGs", async () => {
    const c = new TestClient(server.url);
    expect((await c.post("/api/v2/unsplash-search", { search: "balloons" })).status).toBe(401);
    await logIn(c, (await createUser()).email);

    const balloons = await c.post("/api/v2/unsplash-search", { search: "balloons", page: 1 });
    expect(balloons.status).toBe(200);
    expect(balloons.body.data.total).toBe(2);
    expect(balloons.body.data.results.map((p: { description: string }) => p.description)).toEqual([
      "Balloons in a blue sky",
      "Balloons at sunset",
    ]);
    expect((await c.post("/api/v2/unsplash-search", { search: "" })).body.data.total).toBe(12);
    expect((await c.post("/api/v2/unsplash-search", { search: "zebra" })).body.data.results).toEqual([]);
    expect((await c.post("/api/v2/unsplash-search", { page: 0 })).status).toBe(400);

    const photo = balloons.body.data.results[0];
    const image = await fetch(`${server.url}${photo.regularUrl}`);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1920, 1080]);
    expect((await fetch(`${server.url}/stock/no-such-photo/400.jpg`)).status).toBe(404);

    expect((await c.post("/api/v2/unsplash-track", { downloadLocation: photo.downloadLocation })).status).toBe(200);
    expect((await c.post("/api/v2/unsplash-track", { downloadLocation: "http://169.254.169.254/latest" })).status).toBe(400);
  });
});

describe("Unsplash through its official SDK", () => {
  // Unsplash's API stood in for on loopback: the SDK sends real requests, we check what arrives.
  let fake: http.Server;
  let base = "";
  const requests: { path: string; authorization?: string; version?: string }[] = [];
  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      requests.push({ path: req.url!, authorization: req.headers.authorization, version: String(req.headers["accept-version"]) });
      res.setHeader("content-type", "application/json");
      if (req.url!.startsWith("/search/photos")) {
        return res.end(
          JSON.stringify({
            total: 1,
            total_pages: 1,
            results: [
              {
                id: "abc123",
                description: "Cake",
                width: 4000,
                height: 3000,
                urls: { thumb: "https://images.example/thumb", regular: "https://images.example/regular" },
                user: { name: "Jo Photo", links: { html: "https://unsplash.example/@jo" } },
                links: { download_location: `${base}/photos/abc123/download` },
              },
            ],
          }),
        );
      }
      res.end(JSON.stringify({ url: "https://images.example/full" }));
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  test("search sends the query with the access key and maps the answer; a pick is reported", async () => {
    const provider = unsplashProvider({ accessKey: "test-key", baseUrl: `${base}/` });
    const result = await provider.search("birthday cake", 2, 20);
    expect(requests.at(-1)).toMatchObject({
      path: "/search/photos?query=birthday%20cake&page=2&per_page=20",
      authorization: "Client-ID test-key",
      version: "v1",
    });
    expect(result.results[0]).toEqual({
      id: "abc123",
      description: "Cake",
      width: 4000,
      height: 3000,
      thumbUrl: "https://images.example/thumb",
      regularUrl: "https://images.example/regular",
      author: { name: "Jo Photo", url: "https://unsplash.example/@jo" },
      downloadLocation: `${base}/photos/abc123/download`,
    });
    await provider.trackDownload(result.results[0]!.downloadLocation);
    expect(requests.at(-1)).toMatchObject({ path: "/photos/abc123/download", authorization: "Client-ID test-key" });
  });
});
