import fs from "node:fs/promises";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { env } from "~/lib/env.server";

/** Where tus keeps uploads in progress: inside local storage, so a finished upload becomes the original in place. */
export const uploadStagingDir = () => path.join(env().DATA_DIR, "storage", "tus");

const INFO = ".json";

/**
 * tus's file store, with two changes to how uploads expire:
 * - an upload expires UPLOAD_EXPIRY_HOURS after its last chunk, not after it was created (tus
 *   lets a server move the expiry on as an upload progresses), so a slow upload that keeps going
 *   is never cut off, and Upload-Expires tells the browser the same;
 * - a finished upload never expires: with local storage its file is the stored original.
 *   FileStore's own sweep compares the size with the offset saved at creation (always 0) and
 *   would delete finished uploads too.
 */
class ExpiringFileStore extends FileStore {
  override async getUpload(id: string) {
    const upload = await super.getUpload(id);
    const { mtimeMs } = await fs.stat(path.join(this.directory, id));
    // @tus/server reckons expiry from creation_date in HEAD and PATCH answers.
    const created = upload.creation_date ? Date.parse(upload.creation_date) : 0;
    upload.creation_date = new Date(Math.max(created, mtimeMs)).toISOString();
    return upload;
  }

  /** Removes unfinished uploads untouched for the expiry period; resolves to how many. */
  override async deleteExpired() {
    const period = this.getExpiration();
    if (period <= 0) return 0;
    const cutoff = Date.now() - period;
    let removed = 0;
    const names = await fs.readdir(this.directory).catch(() => [] as string[]);
    // "{id}.json" is an upload's info; "{id}.meta.json" is local storage's record of a finished one.
    for (const name of names.filter((n) => n.endsWith(INFO) && !n.endsWith(`.meta${INFO}`))) {
      const id = name.slice(0, -INFO.length);
      const info = await this.configstore.get(id);
      if (!info) continue;
      const data = await fs.stat(path.join(this.directory, id)).catch(() => null);
      if (data && data.size === info.size) continue;
      const created = info.creation_date ? Date.parse(info.creation_date) : 0;
      if (Math.max(created, data?.mtimeMs ?? 0) > cutoff) continue;
      if (data) await this.remove(id);
      // No file: a finished upload moved to S3 left its info behind.
      else await this.configstore.delete(id);
      removed++;
    }
    return removed;
  }
}

/** The store the upload endpoint writes to, and the sweep cleans. */
export function uploadStore() {
  return new ExpiringFileStore({
    directory: uploadStagingDir(),
    expirationPeriodInMilliseconds: env().UPLOAD_EXPIRY_HOURS * 60 * 60 * 1000,
  });
}

/** The uploads-expire sweep: removes resumable uploads left unfinished for too long. */
export async function expireUploads() {
  await uploadStore().deleteExpired();
}
