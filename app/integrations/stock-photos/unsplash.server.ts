import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import { createApi } from "unsplash-js";
import type { StockPhoto, StockPhotoProvider } from "./stock-port";

export interface UnsplashSettings {
  accessKey: string;
  /** The API's address; tests point it at a local stand-in. */
  baseUrl?: string;
}

/** The fields of an Unsplash photo we use, as both search and the photo call return them. */
interface UnsplashPhoto {
  id: string;
  description?: string | null;
  width: number;
  height: number;
  urls: { thumb: string; regular: string };
  user: { name: string; links?: { html?: string } | null };
  links: { download_location: string };
}

const toStockPhoto = (photo: UnsplashPhoto): StockPhoto => ({
  id: photo.id,
  description: photo.description ?? "",
  width: photo.width,
  height: photo.height,
  thumbUrl: photo.urls.thumb,
  regularUrl: photo.urls.regular,
  author: { name: photo.user.name, url: photo.user.links?.html ?? null },
  downloadLocation: photo.links.download_location,
});

/** Passes bytes on until `maxBytes`, then fails: a download never fills the disk. */
const atMost = (maxBytes: number) => {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? new Error(`The photo is larger than ${maxBytes} bytes.`) : null, chunk);
    },
  });
};

/** Unsplash through its official SDK. Unsplash asks that a pick be reported through its download link. */
export function unsplashProvider(settings: UnsplashSettings): StockPhotoProvider {
  const api = createApi({ accessKey: settings.accessKey, ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}) });
  return {
    name: "unsplash",
    async search(query, page, perPage) {
      const { data, error, response } = await api.GET("/search/photos", { params: { query: { query, page, per_page: perPage } } });
      if (error || !data) throw new Error(`Unsplash search failed (${response.status})`);
      return {
        page,
        total: data.total ?? 0,
        totalPages: data.total_pages ?? 0,
        results: (data.results ?? []).map(toStockPhoto),
      };
    },
    async photo(id) {
      const { data, error, response } = await api.GET("/photos/{assetSlug}", { params: { path: { assetSlug: id } } });
      if (response.status === 404) return null;
      if (error || !data) throw new Error(`Unsplash photo lookup failed (${response.status})`);
      return toStockPhoto(data);
    },
    async download(photo, file, maxBytes) {
      // Unsplash's image addresses resize on request (imgix): wide enough for a 1080p video.
      const url = new URL(photo.regularUrl);
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`Not an image address: ${photo.regularUrl}`);
      url.searchParams.set("w", "1920");
      url.searchParams.set("fm", "jpg");
      url.searchParams.set("q", "85");
      const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
      const contentType = response.headers.get("content-type") ?? "";
      if (!response.ok || !response.body || !contentType.startsWith("image/")) {
        await response.body?.cancel();
        throw new Error(`Unsplash image download failed (${response.status} ${contentType || "untyped"})`);
      }
      await pipeline(Readable.fromWeb(response.body as ReadableStream<Uint8Array>), atMost(maxBytes), createWriteStream(file));
      return { contentType };
    },
    async trackDownload(downloadLocation) {
      // The download location is an API URL of Unsplash's; only its path and query are ours to call.
      const url = new URL(downloadLocation);
      const id = url.pathname.split("/")[2] ?? "";
      const { error, response } = await api.GET("/photos/{id}/download", { params: { path: { id } } });
      if (error) throw new Error(`Unsplash download tracking failed (${response.status})`);
    },
  };
}
