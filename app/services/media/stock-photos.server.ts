import path from "node:path";
import { localStockLibrary, renderDesign } from "~/integrations/stock-photos/local-library.server";
import type { StockPhotoProvider } from "~/integrations/stock-photos/stock-port";
import { unsplashProvider } from "~/integrations/stock-photos/unsplash.server";
import { env } from "~/lib/env.server";
import { badRequest } from "~/lib/http.server";
import { singleton } from "~/lib/singleton.server";

export function stockPhotos(): StockPhotoProvider {
  return singleton("stockPhotos", () => {
    const { UNSPLASH_ACCESS_KEY, UNSPLASH_API_URL } = env();
    return UNSPLASH_ACCESS_KEY
      ? unsplashProvider({ accessKey: UNSPLASH_ACCESS_KEY, baseUrl: UNSPLASH_API_URL })
      : localStockLibrary(stockCacheDir());
  });
}

const stockCacheDir = () => path.join(env().DATA_DIR, "stock");

/** One of the app's own stock backdrops at `width`, rendered once into the cache: its file, or null for no such design. */
export const localStockFile = (id: string, width: number) => renderDesign(stockCacheDir(), id, width);

/**
 * Only the provider's own download links are followed: anything else would let a
 * caller make the server fetch an address of their choosing.
 */
export async function trackStockDownload(downloadLocation: string) {
  const provider = stockPhotos();
  if (provider.name === "unsplash") {
    const url = new URL(downloadLocation);
    const allowed = new URL(env().UNSPLASH_API_URL ?? "https://api.unsplash.com/");
    if (url.host !== allowed.host || !/^\/photos\/[\w-]+\/download$/.test(url.pathname)) {
      throw badRequest("That is not a stock photo download link.", { downloadLocation: "That is not a stock photo download link." });
    }
  } else if (!/^\/stock\/[\w-]+\/download$/.test(downloadLocation)) {
    throw badRequest("That is not a stock photo download link.", { downloadLocation: "That is not a stock photo download link." });
  }
  await provider.trackDownload(downloadLocation);
}
