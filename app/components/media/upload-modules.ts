import { retryingModule } from "~/lib/browser/retrying-import";
import type * as UploadClient from "./upload-client";

// What sending a file needs beyond the uploads and their list (upload-list.tsx): fetched when first
// needed, not with them.

export type UploadClientModule = typeof UploadClient;

/**
 * What keeps picked files in the browser (kept-files.ts), fetched when first needed: when the page
 * opens with unfinished uploads from an earlier visit, or when a file is picked.
 */
export const keptFilesModule = () => import("~/lib/browser/kept-files");

/**
 * The upload client (upload-client.ts), fetched once, and again after a cut until it arrives
 * (retrying-import.ts); `onWaiting` hears of each failed try, for the file's card to say it waits for signal.
 */
export const loadUploader = retryingModule(() => import("./upload-client"));
