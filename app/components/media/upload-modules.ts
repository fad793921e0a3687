import type * as UploadClient from "./upload-client";

// What sending a file needs beyond the uploads and their list (upload-list.tsx): fetched when first
// needed, not with them.

export type UploadClientModule = typeof UploadClient;

/**
 * What keeps picked files in the browser (kept-files.ts), fetched when first needed: when the page
 * opens with unfinished uploads from an earlier visit, or when a file is picked.
 */
export const keptFilesModule = () => import("~/lib/browser/kept-files");

let uploader: Promise<UploadClientModule> | null = null;
/** The upload client (upload-client.ts), fetched once; a failed fetch is tried again next time. */
export function loadUploader() {
  uploader ??= import("./upload-client").catch((error: unknown) => {
    uploader = null;
    throw error;
  });
  return uploader;
}
