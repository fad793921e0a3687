import type { Readable } from "node:stream";

export interface StoredObject {
  size: number;
  contentType: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP Range. */
  end: number;
}

/** Asked for an object that is not stored: every provider rejects `read` and `localCopy` with this. */
export class MissingObjectError extends Error {
  override name = "MissingObjectError";
  constructor(readonly key: string) {
    super(`No stored file at "${key}".`);
  }
}

/**
 * Where media files live: local disk by default, an S3-compatible bucket in
 * production. Keys are paths like "events/{eventId}/media/{mediaUuid}/original.mp4".
 */
export interface StorageProvider {
  readonly name: string;
  /** Stores a local file under `key` (the file may be moved, not copied). */
  putFile(key: string, localPath: string, contentType: string): Promise<StoredObject>;
  putStream(key: string, body: Readable, contentType: string): Promise<StoredObject>;
  stat(key: string): Promise<StoredObject | null>;
  /** The whole object, or the bytes of `range`. A missing key rejects with MissingObjectError. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * A local path to work on with ffmpeg/sharp; `release` removes any temporary copy. A missing key
   * rejects with MissingObjectError. `into`: a job's own folder for the copy, so a copy left by a
   * worker that died is removed with that folder (app/jobs/work-dir.server.ts).
   */
  localCopy(key: string, options?: { into?: string }): Promise<{ path: string; release: () => Promise<void> }>;
  delete(key: string): Promise<void>;
}
