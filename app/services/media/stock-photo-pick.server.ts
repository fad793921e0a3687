import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Event, Media, User } from "drizzle/schema";
import { z } from "zod";
import { PRODUCT_SLUG } from "~/domain/product";
import type { StockPhoto } from "~/integrations/stock-photos/stock-port";
import { db } from "~/lib/db.server";
import { ApiError, isApiError, notFound } from "~/lib/http.server";
import { eventUsage, insertMedia } from "~/models/media.server";
import { findProfileOfUser } from "~/models/user-profile.server";
import { countAttempt } from "~/services/accounts/rate-limit.server";
import { queueMediaProcessing } from "~/services/media/media-queue.server";
import { stockPhotos } from "~/services/media/stock-photos.server";
import { storage } from "~/services/media/storage.server";
import { uploadLimits } from "~/services/uploads/media-intake.server";
import type { StockPicker } from "./stock-photo-pick-view";

// The organiser's stock photo picker on /e/{uuid}: a search by plain GET (?stock=…&stockPage=…)
// and an "Add to the video" form per result (intent=stock-add). A pick names a photo by its id
// only; the photo is looked up again with the provider and fetched from the provider's own
// address, never from one the browser sent.

const PER_PAGE = 8;
const SEARCHES_PER_WINDOW = 120;

export const stockPickInput = z.object({
  photoId: z
    .string({ error: "Choose a photo to add." })
    .trim()
    .min(1, "Choose a photo to add.")
    .max(100, "That is not a stock photo.")
    .regex(/^[\w-]+$/, "That is not a stock photo."),
  caption: z.string().trim().max(2000, "Keep the caption under 2,000 characters.").optional().default(""),
});
export type StockPickInput = z.infer<typeof stockPickInput>;

const pickerQuery = z.object({
  stock: z.string().trim().max(100).catch(""),
  stockPage: z.coerce.number().int().min(1).max(100).catch(1),
});

/** Unsplash's guidelines: the photographer and Unsplash are named, with links back carrying our name. */
const referral = (url: string) => {
  const link = new URL(url);
  link.searchParams.set("utm_source", PRODUCT_SLUG);
  link.searchParams.set("utm_medium", "referral");
  return link.toString();
};

/** "Photo by X on Unsplash"; the pictures of our own library are named by their title. */
export function attributionOf(providerName: string, photo: StockPhoto) {
  return providerName === "unsplash" ? `Photo by ${photo.author.name} on Unsplash` : photo.description;
}

/** A search as the page address gives it (?stock=…&stockPage=…), unchecked. */
export interface StockSearch {
  stock: string;
  stockPage?: string;
}

/** The picker's search when the page address asks for one, else null; searches are counted per `clientIp`. */
export async function stockPickerFor(search: StockSearch | null, clientIp: string): Promise<StockPicker | null> {
  if (!search) return null;
  const { stock: query, stockPage: page } = pickerQuery.parse(search);
  const provider = stockPhotos();
  const unsplash = provider.name === "unsplash";
  const picker: StockPicker = {
    query,
    page,
    total: 0,
    totalPages: 0,
    provider: unsplash ? "unsplash" : "local",
    providerUrl: unsplash ? referral("https://unsplash.com/") : null,
    results: [],
    error: null,
  };
  try {
    await countAttempt(`stock-search:${clientIp}`, SEARCHES_PER_WINDOW);
    const found = await provider.search(query, page, PER_PAGE);
    return {
      ...picker,
      total: found.total,
      totalPages: found.totalPages,
      results: found.results.map((photo) => ({
        id: photo.id,
        description: photo.description,
        thumbUrl: photo.thumbUrl,
        width: photo.width,
        height: photo.height,
        attribution: attributionOf(provider.name, photo),
        authorUrl: unsplash && photo.author.url ? referral(photo.author.url) : null,
        authorName: photo.author.name,
      })),
    };
  } catch (error) {
    if (isApiError(error)) return { ...picker, error: error.message };
    // The rest of the organiser's page must not fail with the stock photo service.
    console.warn("stock photo search failed:", error);
    return { ...picker, error: "Stock photos can't be searched right now. Try again in a moment." };
  }
}

async function organiserNameOf(user: User) {
  const profile = await findProfileOfUser(db(), user.id);
  return [profile?.firstName, profile?.lastName].filter(Boolean).join(" ") || user.email.split("@")[0] || "The organiser";
}

const noRoom = () => new ApiError(413, "QUOTA_EXCEEDED", "This Chorus has no room for more files. Archive something first.");
/** The provider failed us: the organiser is told to try again, and the reason goes to the log. */
const unavailable = (error: unknown) => {
  console.warn("stock photo pick failed:", error);
  return new ApiError(502, "STOCK_UNAVAILABLE", "We couldn't fetch that photo just now. Try again in a moment.");
};

/**
 * Adds a stock photo to the event as the organiser's contribution: reported as picked (Unsplash
 * asks it), stored as an original and processed exactly like an upload.
 */
export async function addStockPhoto(event: Event, organiser: User, input: StockPickInput): Promise<Media> {
  const provider = stockPhotos();
  const photo = await provider.photo(input.photoId).catch((error: unknown) => {
    throw unavailable(error);
  });
  if (!photo) throw notFound("We couldn't find that stock photo. Search again and pick one from the results.");
  const limits = uploadLimits();
  const usage = await eventUsage(db(), event.id);
  if (usage.files >= limits.maxEventFiles) throw noRoom();

  const work = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-stock-"));
  try {
    const file = path.join(work, "photo");
    let contentType: string;
    try {
      await provider.trackDownload(photo.downloadLocation);
      ({ contentType } = await provider.download(photo, file, limits.maxPhotoBytes));
    } catch (error) {
      throw unavailable(error);
    }
    const key = `events/${event.id}/uploads/stock-${crypto.randomUUID()}`;
    const { size } = await storage().putFile(key, file, contentType);
    if (usage.bytes + size > limits.maxEventBytes) {
      await storage().delete(key);
      throw noRoom();
    }
    const attribution = attributionOf(provider.name, photo);
    const contributorName = (await organiserNameOf(organiser)).slice(0, 80);
    // The item and its processing job together, as an upload's (media-intake.server.ts); neither
    // written, the stored photo goes too.
    const recorded = db().transaction(async (tx) => {
      const record = await insertMedia(tx, {
        eventId: event.id,
        purpose: "contribution",
        originalKey: key,
        // The attribution travels with the file (downloads, the package of originals).
        originalName: `${attribution.replace(/[\\/\0]+/g, " ").slice(0, 200) || "Stock photo"}.jpg`,
        mimeType: contentType,
        sizeBytes: size,
        contributorName,
        caption: input.caption,
        uploaderId: organiser.id,
        uploadId: `stock-${crypto.randomUUID()}`,
      });
      await queueMediaProcessing(record, tx);
      return record;
    });
    return await recorded.catch(async (error: unknown) => {
      await storage().delete(key);
      throw error;
    });
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
