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
  trackDownload(downloadLocation: string): Promise<void>;
}
