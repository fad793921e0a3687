export interface StockPhoto {
  id: string;
  description: string;
  width: number;
  height: number;
  /** Small preview for the picker. */
  thumbUrl: string;
  /** Large enough for a 1080p montage. */
  regularUrl: string;
  author: { name: string; url: string | null };
  /** What to call when the organiser picks it (Unsplash's download tracking). */
  downloadLocation: string;
}

export interface StockSearchResult {
  page: number;
  total: number;
  totalPages: number;
  results: StockPhoto[];
}

/** Stock photos for organisers: Unsplash when a key is set, a library shipped with the app otherwise. */
export interface StockPhotoProvider {
  readonly name: string;
  search(query: string, page: number, perPage: number): Promise<StockSearchResult>;
  /** One photo by its id, as search lists it; null when the provider has no such photo. */
  photo(id: string): Promise<StockPhoto | null>;
  /** Writes `photo`, large enough for the video, to the local `file`; at most `maxBytes`. */
  download(photo: StockPhoto, file: string, maxBytes: number): Promise<{ contentType: string }>;
  trackDownload(downloadLocation: string): Promise<void>;
}
