import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { MaxPartSizeExceededError, NodeOnDiskFile } from "@remix-run/node";
import type { Track, User } from "drizzle/schema";
import { z } from "zod";
import { enqueue } from "~/jobs/queue.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, badRequest, isApiError, parseWith } from "~/lib/http.server";
import { parseMultipartPost, type MultipartPost } from "~/lib/multipart.server";
import { validateTrackFile } from "~/media/track-audio.server";
import { formatBytes } from "~/media/upload-rejected-error";
import { countOwnTracks, insertTrack } from "~/models/track.server";
import { trackLimits } from "~/services/arrange/track-library.server";
import { storage } from "~/services/media/storage.server";
import { streamFileToDisk } from "~/services/uploads/stream-part-to-disk.server";

// An organiser's own track (spec §7.2 POST /api/v2/tracks; the arrange page's upload form): the
// file is streamed to disk as it arrives, checked by its content, stored, then processed by a job.

type StagedFile = { path: string; name: string; size: number };

const titleInput = z.object({ title: z.string().trim().max(120, "Keep the title under 120 characters.").optional() });

const CONTENT_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  mp4: "audio/mp4",
  m4a: "audio/mp4",
  wav: "audio/wav",
  flac: "audio/flac",
  ogg: "audio/ogg",
  aac: "audio/aac",
};

const staging = () => path.join(env().DATA_DIR, "storage", "form-uploads");

/** A streamed multipart post with `file` and `title`: the API's upload. */
export async function receiveTrackUpload(post: MultipartPost, owner: User) {
  if (!post.contentType.includes("multipart/form-data")) {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", 'Send the track as multipart/form-data, with the file in the field "file".');
  }
  await assertRoomForTrack(owner);
  await fs.mkdir(staging(), { recursive: true });
  const written: string[] = [];
  const maxFileBytes = trackLimits().maxBytes;
  let form: FormData;
  try {
    form = await parseMultipartPost(post, streamFileToDisk(staging(), maxFileBytes, written), { maxFiles: 1, maxFileBytes });
  } catch (error) {
    await Promise.all(written.map((file) => fs.rm(file, { force: true })));
    if (isApiError(error)) throw error;
    if (error instanceof MaxPartSizeExceededError) throw tooLarge();
    throw badRequest("The upload could not be read. Please try again.");
  }
  const file = form.get("file");
  const staged = file instanceof NodeOnDiskFile && file.size > 0 ? { path: file.getFilePath(), name: file.name, size: file.size } : null;
  try {
    if (!staged) throw badRequest("Choose a music file to upload.", { file: "Choose a music file to upload." });
    return await addTrack(owner, staged, form.get("title"));
  } finally {
    await Promise.all(written.map((f) => fs.rm(f, { force: true })));
  }
}

async function assertRoomForTrack(owner: User) {
  const { maxOwnTracks } = trackLimits();
  if ((await countOwnTracks(db(), owner.id)) >= maxOwnTracks) {
    throw new ApiError(409, "TOO_MANY_TRACKS", `You can keep ${maxOwnTracks} tracks of your own. Delete one to upload another.`);
  }
}

const tooLarge = () => {
  const message = `This file is larger than ${formatBytes(trackLimits().maxBytes)}.`;
  return new ApiError(413, "TOO_LARGE", message, { file: message });
};

/** A file that is not usable music, answered on the form's file field. */
function refusal(error: unknown): never {
  if (error instanceof Error && error.name === "UploadRejectedError") {
    const code = (error as Error & { code: string }).code;
    throw new ApiError(code === "TOO_LARGE" ? 413 : 400, code, error.message, { file: error.message });
  }
  throw error;
}

/** Checks the staged file is music within the limits, stores it and queues its processing. */
async function addTrack(owner: User, staged: StagedFile, rawTitle: FormDataEntryValue | null): Promise<Track> {
  const { title } = parseWith(titleInput, { title: typeof rawTitle === "string" ? rawTitle : undefined });
  const checked = await validateTrackFile(staged.path, trackLimits()).catch(refusal);
  const format = checked.probe.formatNames[0] ?? "";
  const id = crypto.randomUUID();
  const originalKey = `tracks/${id}/original`;
  const name = staged.name.slice(0, 255);
  await storage().putFile(originalKey, staged.path, CONTENT_TYPES[format] ?? "application/octet-stream");
  // The track and its processing job in one transaction, as an upload's (media-intake.server.ts): a
  // row without its job would wait for processing for ever. With neither, the stored file goes too.
  const recorded = db().transaction(async (tx) => {
    const track = await insertTrack(tx, {
      id,
      ownerId: owner.id,
      title:
        title ||
        name
          .replace(/\.[^.]+$/, "")
          .trim()
          .slice(0, 120) ||
        "My track",
      originalKey,
      originalName: name,
      sizeBytes: staged.size,
    });
    await enqueue("track-process", { trackId: track.id }, { db: tx });
    return track;
  });
  return recorded.catch(async (error: unknown) => {
    await storage().delete(originalKey);
    throw error;
  });
}
