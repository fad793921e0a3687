import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MissingObjectError, type ByteRange, type StorageProvider, type StoredObject } from "./storage-port";

const META = ".meta.json";

/** Files under one folder; each object has a sidecar with its content type. */
export function localDiskStorage(root: string): StorageProvider {
  const base = path.resolve(root);
  const fileOf = (key: string) => {
    const full = path.resolve(base, key);
    if (!full.startsWith(base + path.sep) || key.includes("\0")) throw new Error(`Invalid storage key: ${key}`);
    return full;
  };
  const writeMeta = (file: string, contentType: string) => fs.writeFile(file + META, JSON.stringify({ contentType }));
  const stat = async (key: string): Promise<StoredObject | null> => {
    const file = fileOf(key);
    const info = await fs.stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const meta = await fs
      .readFile(file + META, "utf8")
      .then(JSON.parse)
      .catch(() => ({}));
    return { size: info.size, contentType: meta.contentType ?? "application/octet-stream" };
  };
  // A read stream of a missing file only errors once read: say so up front, as S3 does.
  const existing = async (key: string) => {
    const file = fileOf(key);
    const info = await fs.stat(file).catch(() => null);
    if (!info?.isFile()) throw new MissingObjectError(key);
    return file;
  };

  return {
    name: "local",
    async putFile(key, localPath, contentType) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      try {
        await fs.rename(localPath, file);
      } catch {
        // Another filesystem: copy, then remove the source.
        await fs.copyFile(localPath, file);
        await fs.rm(localPath, { force: true });
      }
      await writeMeta(file, contentType);
      return (await stat(key))!;
    },
    async putStream(key, body: Readable, contentType) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.partial-${process.pid}-${Date.now()}`;
      try {
        await pipeline(body, createWriteStream(partial));
        await fs.rename(partial, file);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
      await writeMeta(file, contentType);
      return (await stat(key))!;
    },
    stat,
    async read(key, range?: ByteRange) {
      return createReadStream(await existing(key), range ? { start: range.start, end: range.end } : undefined);
    },
    async localCopy(key) {
      return { path: await existing(key), release: async () => {} };
    },
    async delete(key) {
      const file = fileOf(key);
      await fs.rm(file, { force: true });
      await fs.rm(file + META, { force: true });
    },
  };
}
