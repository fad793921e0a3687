import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import { MissingObjectError, type ByteRange, type StorageProvider } from "./storage-port";

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing, for MinIO and most S3-compatible services. */
  forcePathStyle?: boolean;
  prefix?: string;
  /** Files larger than this go up in parts of this size (S3 takes parts of 5 MiB or more). */
  partSize?: number;
}

const MiB = 1024 * 1024;
const MIN_PART_SIZE = 5 * MiB;
const DEFAULT_PART_SIZE = 32 * MiB;
/** Parts of one file sent at once. */
const PARALLEL_PARTS = 4;
const UPLOAD_ATTEMPTS = 4;

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

const BROKEN_CONNECTION = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "ECONNREFUSED", "EAI_AGAIN"]);

/** Worth another try: S3's 500/503 SlowDown, throttling, a connection that broke. */
function isTransient(error: unknown) {
  const status = statusOf(error);
  if (status !== undefined) return status >= 500 || status === 429;
  return BROKEN_CONNECTION.has((error as { code?: string }).code ?? "");
}

/**
 * The SDK does not retry a request whose body is a stream (it cannot rewind one), and S3
 * answers 503 SlowDown now and then under load: an upload is tried again here, each attempt
 * with a fresh stream of the same bytes.
 */
async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= UPLOAD_ATTEMPTS || !isTransient(error)) throw error;
      await sleep(100 * 2 ** tries + Math.random() * 100);
    }
  }
}

/** An S3-compatible bucket through the official AWS SDK. */
export function s3Storage(settings: S3Settings): StorageProvider {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
  });
  const Bucket = settings.bucket;
  const Key = (key: string) => `${settings.prefix ?? ""}${key}`;
  const partSize = settings.partSize ?? DEFAULT_PART_SIZE;
  if (partSize < MIN_PART_SIZE) throw new Error(`S3 parts must be at least ${MIN_PART_SIZE} bytes.`);

  /** Sends bytes `start`..`end` (inclusive) of a local file as the body `command` is built with. */
  const sendFileBytes = <T>(file: string, start: number, end: number, send: (body: Readable, length: number) => Promise<T>) =>
    withRetries(async () => {
      const body = createReadStream(file, { start, end });
      try {
        return await send(body, end - start + 1);
      } finally {
        body.destroy();
      }
    });

  /** Large files go up in parts: each part is retried on its own, and a failure leaves no parts behind. */
  async function putInParts(key: string, file: string, size: number, contentType: string) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }));
    const count = Math.ceil(size / partSize);
    const parts: CompletedPart[] = [];
    let next = 0;
    let failed = false;
    const sendParts = async () => {
      while (next < count && !failed) {
        const index = next++;
        const start = index * partSize;
        const end = Math.min(size, start + partSize) - 1;
        try {
          const sent = await sendFileBytes(file, start, end, (Body, ContentLength) =>
            client.send(new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber: index + 1, Body, ContentLength })),
          );
          // The part's checksum, when the SDK sent one, must be named again on completion.
          const { ETag, ChecksumCRC32, ChecksumCRC32C, ChecksumCRC64NVME, ChecksumSHA1, ChecksumSHA256 } = sent;
          parts[index] = { PartNumber: index + 1, ETag, ChecksumCRC32, ChecksumCRC32C, ChecksumCRC64NVME, ChecksumSHA1, ChecksumSHA256 };
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const outcomes = await Promise.allSettled(Array.from({ length: Math.min(PARALLEL_PARTS, count) }, sendParts));
    const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    try {
      if (failure) throw failure.reason;
      await withRetries(() =>
        client.send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } })),
      );
    } catch (error) {
      // Parts of an unfinished upload are kept (and billed) until aborted.
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => {});
      throw error;
    }
  }

  const stat = async (key: string) => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: Key(key) }));
      return { size: Number(head.ContentLength ?? 0), contentType: head.ContentType ?? "application/octet-stream" };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  };

  const putFile: StorageProvider["putFile"] = async (key, localPath, contentType) => {
    const { size } = await fs.stat(localPath);
    if (size > partSize) {
      await putInParts(Key(key), localPath, size, contentType);
    } else if (size === 0) {
      await withRetries(() =>
        client.send(new PutObjectCommand({ Bucket, Key: Key(key), Body: "", ContentLength: 0, ContentType: contentType })),
      );
    } else {
      await sendFileBytes(localPath, 0, size - 1, (Body, ContentLength) =>
        client.send(new PutObjectCommand({ Bucket, Key: Key(key), Body, ContentLength, ContentType: contentType })),
      );
    }
    await fs.rm(localPath, { force: true });
    return { size, contentType };
  };

  const read = async (key: string, range?: ByteRange) => {
    try {
      const object = await client.send(
        new GetObjectCommand({ Bucket, Key: Key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return object.Body as Readable;
    } catch (error) {
      if (statusOf(error) === 404) throw new MissingObjectError(key);
      throw error;
    }
  };

  return {
    name: "s3",
    putFile,
    async putStream(key, body, contentType) {
      // The length must be known before sending: spool to a temporary file first (never to memory).
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-s3-"));
      try {
        const temp = path.join(dir, "body");
        await pipeline(body, createWriteStream(temp));
        return await putFile(key, temp, contentType);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
    stat,
    read,
    async localCopy(key, options) {
      const dir = await fs.mkdtemp(path.join(options?.into ?? os.tmpdir(), "chorus-s3-"));
      const release = () => fs.rm(dir, { recursive: true, force: true });
      try {
        const file = path.join(dir, path.basename(key));
        await pipeline(await read(key), createWriteStream(file));
        return { path: file, release };
      } catch (error) {
        await release();
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: Key(key) }));
    },
  };
}
