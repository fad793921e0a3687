import fs from "node:fs/promises";
import path from "node:path";
import { type Configstore, FileConfigstore, FileStore } from "@tus/file-store";
import { ERRORS, Upload } from "@tus/server";
import { env } from "~/lib/env.server";
import { bucketStagingStore, stagingInBucket } from "~/services/uploads/bucket-staging.server";

/** Where tus keeps uploads in progress without S3: inside local storage, so a finished upload becomes the original in place. */
export const uploadStagingDir = () => path.join(env().DATA_DIR, "storage", "tus");

const INFO = ".json";

/**
 * tus's file store, reading an upload's info from disk once per process (RememberedInfos below)
 * and with two changes to how uploads expire:
 * - an upload expires UPLOAD_EXPIRY_HOURS after its last chunk, not after it was created (tus
 *   lets a server move the expiry on as an upload progresses), so a slow upload that keeps going
 *   is never cut off, and Upload-Expires tells the browser the same;
 * - a finished upload never expires: with local storage its file is the stored original.
 *   FileStore's own sweep compares the size with the offset saved at creation (always 0) and
 *   would delete finished uploads too.
 */
class ExpiringFileStore extends FileStore {
  private readonly infos: RememberedInfos;

  constructor(options: { directory: string; expirationPeriodInMilliseconds: number }) {
    const infos = new RememberedInfos(new FileConfigstore(options.directory));
    super({ ...options, configstore: infos });
    this.infos = infos;
  }

  /**
   * FileStore's `getUpload`, with the offset and the time of the last chunk from one `stat` of the
   * upload's file. It runs for every chunk: the info file read, then two `stat`s, took ~0.6 ms of a
   * 2 MB chunk's ~3 ms on loopback (bench/uploads.bench.ts).
   */
  override async getUpload(id: string) {
    const info = await this.configstore.get(id);
    if (!info) throw ERRORS.FILE_NOT_FOUND;
    const file = path.join(this.directory, id);
    const stats = await fs.stat(file).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
      // Removed, maybe by another process's sweep along with its info: unknown then, as tus has it.
      this.infos.forget(id);
      throw (await this.configstore.get(id)) ? ERRORS.FILE_NO_LONGER_EXISTS : ERRORS.FILE_NOT_FOUND;
    });
    if (stats.isDirectory()) throw ERRORS.FILE_NOT_FOUND;
    // @tus/server reckons expiry from creation_date in HEAD and PATCH answers.
    const created = info.creation_date ? Date.parse(info.creation_date) : 0;
    return new Upload({
      id,
      size: info.size,
      offset: stats.size,
      metadata: info.metadata,
      creation_date: new Date(Math.max(created, stats.mtimeMs)).toISOString(),
      storage: { type: "file", path: file },
    });
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

/** Infos remembered per process: enough for every upload in progress at once. */
const REMEMBERED_INFOS = 2000;

/**
 * Upload infos remembered in memory in front of the files that hold them. An info is written once,
 * when its upload is created; only declaring a deferred length changes it, so infos without a
 * length are never remembered (another process may declare it). An upload removed by another
 * process (the sweep) leaves a remembered info behind, but its file is gone: `getUpload` answers
 * that it no longer exists, as it would have, after forgetting the info and reading it again.
 */
class RememberedInfos implements Configstore {
  private readonly known = new Map<string, Upload>();

  constructor(private readonly files: Configstore) {}

  async get(id: string) {
    const known = this.known.get(id);
    if (known) return known;
    const info = await this.files.get(id);
    if (info) this.remember(id, info);
    return info;
  }

  async set(id: string, info: Upload) {
    await this.files.set(id, info);
    // A copy as it would be read back: the caller goes on changing its object.
    this.remember(id, JSON.parse(JSON.stringify(info)) as Upload);
  }

  async delete(id: string) {
    this.forget(id);
    await this.files.delete(id);
  }

  list() {
    return this.files.list?.() ?? Promise.resolve([]);
  }

  forget(id: string) {
    this.known.delete(id);
  }

  private remember(id: string, info: Upload) {
    this.forget(id);
    if (info.size === undefined || info.size === null) return;
    this.known.set(id, info);
    // Maps keep insertion order: the first key is the one remembered longest ago.
    if (this.known.size > REMEMBERED_INFOS) this.known.delete(this.known.keys().next().value!);
  }
}

/**
 * The store the upload endpoint writes to, and the sweep cleans: the bucket when media is stored
 * in S3 (bucket-staging.server.ts), so no two web processes need to share a disk; else the folder.
 */
export function uploadStore() {
  const expirationPeriodInMilliseconds = env().UPLOAD_EXPIRY_HOURS * 60 * 60 * 1000;
  if (stagingInBucket()) return bucketStagingStore(expirationPeriodInMilliseconds);
  return new ExpiringFileStore({ directory: uploadStagingDir(), expirationPeriodInMilliseconds });
}

/** The uploads-expire sweep: removes resumable uploads left unfinished for too long. */
export async function expireUploads() {
  await uploadStore().deleteExpired();
}
