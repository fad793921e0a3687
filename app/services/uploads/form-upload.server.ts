import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { MaxPartSizeExceededError, NodeOnDiskFile } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, isApiError } from "~/lib/http.server";
import { parseMultipartPost, type MultipartPost } from "~/lib/multipart.server";
import { SIGNATURE_BYTES, type SignatureRefusal, refusalForHead } from "~/media/file-signature";
import { findEventByUuid } from "~/models/event.server";
import { signGuestbook, type Signer } from "~/services/events/guestbook.server";
import { storage } from "~/services/media/storage.server";
import { authoriseUpload, recordUpload, uploadLimits } from "~/services/uploads/media-intake.server";
import { streamFileToDisk } from "~/services/uploads/stream-part-to-disk.server";

const MAX_FILES_PER_POST = 20;

/** A file of the post refused by its first bytes (file-signature.ts): nothing of the post is kept. */
class RefusedByFirstBytes extends Error {
  constructor(
    readonly filename: string,
    readonly refusal: SignatureRefusal,
  ) {
    super(refusal.message);
  }
}

/**
 * The upload path for browsers without JavaScript: a plain multipart post,
 * streamed part by part to disk (never a whole clip in memory), then stored and
 * recorded exactly like a resumable upload. Each file is judged by its first bytes
 * as they arrive, like a resumable upload's first chunk: one that is no photo or
 * video stops the post with its reason, instead of a thank-you for a file that
 * processing would refuse. `sender`: who posts (their account, if logged in) and from where.
 */
export async function receiveFormUpload(post: MultipartPost, eventUuid: string, sender: Signer) {
  const staging = path.join(env().DATA_DIR, "storage", "form-uploads");
  await fs.mkdir(staging, { recursive: true });
  const written: string[] = [];
  const maxFileBytes = Math.max(uploadLimits().maxVideoBytes, uploadLimits().maxPhotoBytes);
  const toDisk = streamFileToDisk(staging, maxFileBytes, written, {
    // Each file is judged by its first bytes before any of it is written.
    judgeHead: {
      headBytes: SIGNATURE_BYTES,
      judge: (head, wholeFile, filename) => {
        const refusal = refusalForHead(head, { wholeFile });
        return refusal ? new RefusedByFirstBytes(filename, refusal) : null;
      },
    },
  });
  let form: FormData;
  try {
    form = await parseMultipartPost(post, toDisk, { maxFiles: MAX_FILES_PER_POST, maxFileBytes });
  } catch (error) {
    // Files that arrived before the part that failed are not kept either.
    await Promise.all(written.map((file) => fs.rm(file, { force: true })));
    if (isApiError(error)) throw error;
    if (error instanceof RefusedByFirstBytes) {
      throw new ApiError(415, error.refusal.code, `${error.filename}: ${error.refusal.message}`);
    }
    if (error instanceof MaxPartSizeExceededError) {
      throw new ApiError(413, "TOO_LARGE", "That file is larger than we accept. Pick a shorter clip or a smaller file.");
    }
    throw new ApiError(400, "BAD_UPLOAD", "The upload could not be read. Please try again.");
  }
  const files = (form.getAll("file") as unknown[]).filter((f): f is NodeOnDiskFile => f instanceof NodeOnDiskFile && f.size > 0);
  const remove = () => Promise.all(files.map((f) => f.remove().catch(() => {})));
  const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : undefined);
  if (!files.length) {
    await remove();
    // A guestbook takes words alone; anywhere else a file is what the form is for.
    const event = await findEventByUuid(db(), eventUuid);
    if (!event) throw new ApiError(404, "NOT_FOUND", "There is no Chorus at this link.");
    const entry = await signGuestbook(sender, event, {
      contributorName: field("contributorName"),
      caption: field("caption"),
      invite: field("invite"),
    });
    return { media: [], entry };
  }
  if (files.length > MAX_FILES_PER_POST) {
    await remove();
    throw new ApiError(400, "TOO_MANY_FILES", `Send at most ${MAX_FILES_PER_POST} files at a time.`);
  }
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
      const authorised = await authoriseUpload(sender.user, meta, size);
      const uploadId = `form-${crypto.randomUUID()}`;
      const key = `events/${authorised.event.id}/uploads/${uploadId}`;
      await storage().putFile(key, file.getFilePath(), file.type || "application/octet-stream");
      recorded.push(await recordUpload(authorised, { uploadId, key, size }));
    } finally {
      await file.remove().catch(() => {});
    }
  }
  return { media: recorded, entry: null };
}
