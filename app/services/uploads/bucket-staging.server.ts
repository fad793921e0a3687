import type { Part } from "@aws-sdk/client-s3";
import { S3Store, type MetadataValue } from "@tus/s3-store";
import { ERRORS, Upload } from "@tus/server";
import { env } from "~/lib/env.server";

// With S3 storage, uploads in progress are staged in the bucket itself, so any web process can take
// an upload's next chunk and any process can finish it (docs/decisions/032). @tus/s3-store keeps an
// upload as a multipart upload of the object `{id}`, its info in `{id}.info`, and the bytes of a
// chunk too small to be a part (S3 takes parts of 5 MiB or more, but the last) in `{id}.part`,
// which the next chunk takes back and sends on in front of its own bytes. The finished object is
// the stored original.

const UPLOAD_ID = /^[\w-]+$/;

const isMissing = (error: unknown) => {
  const name = (error as { name?: string; Code?: string }).name ?? (error as { Code?: string }).Code;
  return name === "NotFound" || name === "NoSuchKey" || name === "NoSuchUpload";
};

const latest = (...dates: (string | Date | undefined)[]) =>
  new Date(Math.max(0, ...dates.map((date) => (date === undefined ? 0 : new Date(date).getTime())))).toISOString();

/**
 * @tus/s3-store with the same rules as local staging (upload-expiry.server.ts): an upload expires
 * UPLOAD_EXPIRY_HOURS after its last chunk, not after it began; a finished upload is its object,
 * and is gone once that object is deleted with its media; the object keeps the file's type.
 */
export class BucketStagingStore extends S3Store {
  /** Starts the multipart upload with the file's type (checked by the creation hook), then its info. */
  override async create(upload: Upload) {
    upload.creation_date = new Date().toISOString();
    const started = await this.client.createMultipartUpload({
      Bucket: this.bucket,
      Key: upload.id,
      ContentType: upload.metadata?.filetype || "application/octet-stream",
    });
    upload.storage = { type: "s3", path: upload.id, bucket: this.bucket };
    await this.saveMetadata(upload, started.UploadId!);
    return upload;
  }

  /**
   * The upload as tus reads it for every request: its offset from the parts sent and the part kept
   * aside, and as its date the last time bytes arrived (tus reckons expiry from it). An upload
   * whose every byte arrived but whose parts were never joined (the process stopped in between) is
   * joined now, so the client asking for the offset finds it complete.
   */
  override async getUpload(id: string): Promise<Upload> {
    const metadata = await this.getMetadata(id).catch((error: unknown) => {
      if (isMissing(error)) throw ERRORS.FILE_NOT_FOUND;
      throw error;
    });
    const { file } = metadata;
    const parts = await this.retrieveParts(id).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (parts === null) {
      // Joined (or given up): the object is the upload now, unless its media was deleted with it.
      const object = await this.head(id);
      if (!object) throw ERRORS.FILE_NO_LONGER_EXISTS;
      return new Upload({ ...file, offset: file.size ?? object.ContentLength ?? 0, creation_date: latest(object.LastModified) });
    }
    const kept = await this.head(this.partKey(id, true));
    const offset = parts.reduce((sum, part) => sum + (part.Size ?? 0), 0) + (kept?.ContentLength ?? 0);
    if (file.size !== undefined && offset === file.size && !kept) {
      // Joined meanwhile by the request that sent the last bytes: read on.
      await this.finishMultipartUpload(metadata, parts).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
      await this.clearCache(id);
      return this.getUpload(id);
    }
    const lastWrite = latest(file.creation_date, kept?.LastModified, ...parts.map((part) => part.LastModified));
    return new Upload({ ...file, offset, creation_date: lastWrite });
  }

  /**
   * Joins the parts naming each one's checksum, as the storage provider does
   * (app/integrations/storage/s3.server.ts): the SDK sends a checksum with every part, and S3
   * refuses a completion that leaves them out when the upload was begun with an algorithm.
   */
  protected override async finishMultipartUpload(metadata: MetadataValue, parts: Part[]) {
    if (parts.length === 0) return super.finishMultipartUpload(metadata, parts);
    const joined = await this.client.completeMultipartUpload({
      Bucket: this.bucket,
      Key: metadata.file.id,
      UploadId: metadata["upload-id"],
      MultipartUpload: {
        Parts: parts.map(({ PartNumber, ETag, ChecksumCRC32, ChecksumCRC32C, ChecksumCRC64NVME, ChecksumSHA1, ChecksumSHA256 }) => ({
          PartNumber,
          ETag,
          ChecksumCRC32,
          ChecksumCRC32C,
          ChecksumCRC64NVME,
          ChecksumSHA1,
          ChecksumSHA256,
        })),
      },
    });
    return joined.Location;
  }

  /** Removes unfinished uploads untouched for the expiry period; resolves to how many. */
  override async deleteExpired() {
    const period = this.getExpiration();
    if (period <= 0) return 0;
    const cutoff = Date.now() - period;
    let removed = 0;
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.listMultipartUploads({ Bucket: this.bucket, KeyMarker, UploadIdMarker });
      for (const open of page.Uploads ?? []) {
        const id = open.Key;
        if (!id || !UPLOAD_ID.test(id) || !open.UploadId || (open.Initiated && open.Initiated.getTime() > cutoff)) continue;
        const upload = await this.getUpload(id).catch(() => null);
        if (upload?.creation_date && Date.parse(upload.creation_date) > cutoff) continue;
        await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: open.UploadId });
        await this.client.deleteObjects({
          Bucket: this.bucket,
          Delete: { Objects: [{ Key: this.infoKey(id) }, { Key: this.partKey(id, true) }] },
        });
        await this.clearCache(id);
        removed++;
      }
      if (!page.IsTruncated) return removed;
      KeyMarker = page.NextKeyMarker;
      UploadIdMarker = page.NextUploadIdMarker;
    }
  }

  /**
   * Uploads whose every byte arrived between `from` and `to`: the joined objects at the top of the
   * bucket with an info beside them (finished originals stay there; `events/…` is not listed).
   */
  async finishedBetween(from: number, to: number) {
    const objects = new Map<string, number>();
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.listObjectsV2({ Bucket: this.bucket, Delimiter: "/", ContinuationToken });
      for (const object of page.Contents ?? []) {
        if (object.Key) objects.set(object.Key, object.LastModified?.getTime() ?? 0);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return [...objects]
      .filter(([key, at]) => UPLOAD_ID.test(key) && objects.has(this.infoKey(key)) && at >= from && at <= to)
      .map(([key]) => key);
  }

  private async head(key: string) {
    return this.client.headObject({ Bucket: this.bucket, Key: key }).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
  }
}

/** Whether uploads are staged in the bucket: whenever media is stored in one (S3_BUCKET). */
export const stagingInBucket = () => env().S3_BUCKET !== undefined;

/** The bucket staging store, with the storage settings (app/services/media/storage.server.ts). */
export function bucketStagingStore(expirationPeriodInMilliseconds: number) {
  const settings = env();
  return new BucketStagingStore({
    expirationPeriodInMilliseconds,
    // Expiry is this app's sweep (above), not a bucket lifecycle rule reading tags.
    useTags: false,
    s3ClientConfig: {
      bucket: settings.S3_BUCKET!,
      region: settings.S3_REGION,
      endpoint: settings.S3_ENDPOINT,
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
      credentials:
        settings.S3_ACCESS_KEY_ID && settings.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY }
          : undefined,
    },
  });
}
