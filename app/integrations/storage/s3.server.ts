import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { ByteRange, StorageProvider } from "./storage-port";

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing, for MinIO and most S3-compatible services. */
  forcePathStyle?: boolean;
  prefix?: string;
}

/** An S3-compatible bucket through the official AWS SDK. */
export function s3Storage(settings: S3Settings): StorageProvider {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
  });
  const Bucket = settings.bucket;
  const Key = (key: string) => `${settings.prefix ?? ""}${key}`;

  const stat = async (key: string) => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: Key(key) }));
      return { size: Number(head.ContentLength ?? 0), contentType: head.ContentType ?? "application/octet-stream" };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return null;
      throw error;
    }
  };

  return {
    name: "s3",
    async putFile(key, localPath, contentType) {
      const { size } = await fs.stat(localPath);
      await client.send(new PutObjectCommand({ Bucket, Key: Key(key), Body: createReadStream(localPath), ContentLength: size, ContentType: contentType }));
      await fs.rm(localPath, { force: true });
      return { size, contentType };
    },
    async putStream(key, body, contentType) {
      // PutObject needs a length: spool to a temporary file first (never to memory).
      const temp = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "chorus-s3-")), "body");
      await pipeline(body, createWriteStream(temp));
      try {
        return await this.putFile(key, temp, contentType);
      } finally {
        await fs.rm(path.dirname(temp), { recursive: true, force: true });
      }
    },
    stat,
    async read(key, range?: ByteRange) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: Key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      return object.Body as Readable;
    },
    async localCopy(key) {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-s3-"));
      const file = path.join(dir, path.basename(key));
      await pipeline(await this.read(key), createWriteStream(file));
      return { path: file, release: () => fs.rm(dir, { recursive: true, force: true }) };
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: Key(key) }));
    },
  };
}
