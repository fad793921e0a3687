import { createApi } from "unsplash-js";
import type { StockPhotoProvider } from "./stock-port";

export interface UnsplashSettings {
  accessKey: string;
  /** The API's address; tests point it at a local stand-in. */
  baseUrl?: string;
}

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
        results: (data.results ?? []).map((photo) => ({
          id: photo.id,
          description: photo.description ?? "",
          width: photo.width,
          height: photo.height,
          thumbUrl: photo.urls.thumb,
          regularUrl: photo.urls.regular,
          author: { name: photo.user.name, url: photo.user.links?.html ?? null },
          downloadLocation: photo.links.download_location,
        })),
      };
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
