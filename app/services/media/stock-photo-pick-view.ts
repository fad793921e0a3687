// The stock photo picker as the organiser's page shows it (stock-photo-pick.server.ts fills it).

export interface StockPickerPhoto {
  id: string;
  description: string;
  thumbUrl: string;
  width: number;
  height: number;
  attribution: string;
  /** The photographer's page (Unsplash), with the referral Unsplash asks for. */
  authorUrl: string | null;
  authorName: string;
}

export interface StockPicker {
  query: string;
  page: number;
  total: number;
  totalPages: number;
  provider: "unsplash" | "local";
  /** Unsplash's home page, linked from every attribution. */
  providerUrl: string | null;
  results: StockPickerPhoto[];
  error: string | null;
}
