import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  MaxPartSizeExceededError,
  NodeOnDiskFile,
  unstable_composeUploadHandlers,
  unstable_createFileUploadHandler,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { env } from "~/lib/env.server";
import { ApiError } from "~/lib/http.server";
import { authoriseUpload, recordUpload, uploadLimits } from "./media-intake.server";
import { storage } from "./storage.server";

const MAX_FILES_PER_POST = 20;

/**
 * The upload path for browsers without JavaScript: a plain multipart post,
 * streamed part by part to disk (never a whole clip in memory), then stored and
 * recorded exactly like a resumable upload.
 */
export async function receiveFormUpload(request: Request, eventUuid: string) {
  const staging = path.join(env().DATA_DIR, "storage", "form-uploads");
  await fs.mkdir(staging, { recursive: true });
  const handler = unstable_composeUploadHandlers(
    unstable_createFileUploadHandler({
      directory: staging,
      maxPartSize: uploadLimits().maxVideoBytes,
      file: () => crypto.randomUUID(),
      filter: ({ name }) => name === "file",
    }),
    unstable_createMemoryUploadHandler({ maxPartSize: 16 * 1024 }),
  );
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      throw new ApiError(413, "TOO_LARGE", "That file is larger than we accept. Pick a shorter clip or a smaller file.");
    }
    throw new ApiError(400, "BAD_UPLOAD", "The upload could not be read. Please try again.");
  }
  const files = (form.getAll("file") as unknown[]).filter((f): f is NodeOnDiskFile => f instanceof NodeOnDiskFile && f.size > 0);
  const remove = () => Promise.all(files.map((f) => f.remove().catch(() => {})));
  if (!files.length) {
    await remove();
    throw new ApiError(400, "NO_FILE", "Choose a photo or a video to upload.", { file: "Choose a photo or a video to upload." });
  }
  if (files.length > MAX_FILES_PER_POST) {
    await remove();
    throw new ApiError(400, "TOO_MANY_FILES", `Send at most ${MAX_FILES_PER_POST} files at a time.`);
  }
  const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : undefined);
  // The browser keeps no token without JavaScript: a fresh one per post still ties these uploads together.
  const uploadToken = crypto.randomBytes(32).toString("base64url");
  const recorded = [];
  for (const file of files) {
    try {
      const meta = {
        eventUuid,
        filename: file.name,
        filetype: file.type,
        contributorName: field("contributorName"),
        caption: field("caption"),
        purpose: field("purpose"),
        privateKey: field("privateKey"),
        invite: field("invite"),
        uploadToken,
      };
      // Read before the file moves into storage: NodeOnDiskFile reads its size from disk.
      const size = file.size;
      const authorised = await authoriseUpload(request, meta, size);
      const uploadId = `form-${crypto.randomUUID()}`;
      const key = `events/${authorised.event.id}/uploads/${uploadId}`;
      await storage().putFile(key, file.getFilePath(), file.type || "application/octet-stream");
      recorded.push(await recordUpload(authorised, { uploadId, key, size }));
    } finally {
      await file.remove().catch(() => {});
    }
  }
  return recorded;
}
