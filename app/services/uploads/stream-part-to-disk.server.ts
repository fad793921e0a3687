import crypto from "node:crypto";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MaxPartSizeExceededError, NodeOnDiskFile, type UploadHandler } from "@remix-run/node";

export interface StreamPartOptions {
  /** Refuses a part by its first `headBytes` (or the whole part when shorter): an error ends the post. */
  judgeHead?: { headBytes: number; judge: (head: Buffer, wholeFile: boolean, filename: string) => Error | null };
}

/**
 * Writes each `file` part of a multipart post to `directory` under a random name, waiting for the
 * disk as it goes and stopping past `maxBytes`. Remix's stock file handler writes without heeding
 * backpressure (a fast client can pile a clip up in memory) and names the file after its random
 * path, losing the name the browser sent. Every path written is pushed to `written`, so the caller
 * can remove them whatever happens next.
 */
export function streamFileToDisk(directory: string, maxBytes: number, written: string[], options: StreamPartOptions = {}): UploadHandler {
  return async ({ name, filename, contentType, data }) => {
    if (name !== "file" || !filename) return undefined;
    const filePath = path.join(directory, crypto.randomUUID());
    written.push(filePath);
    let size = 0;
    const check = options.judgeHead;
    // With a check, the first bytes wait here until there are enough to judge the file by.
    let head: Buffer[] | null = check ? [] : null;
    const judged = (wholeFile: boolean) => {
      const bytes = Buffer.concat(head!);
      head = null;
      return { error: check!.judge(bytes.subarray(0, check!.headBytes), wholeFile, filename), bytes };
    };
    const limit = new Transform({
      transform(chunk: Uint8Array, _encoding, done) {
        size += chunk.byteLength;
        if (size > maxBytes) return done(new MaxPartSizeExceededError(name, maxBytes));
        if (!head) return done(null, chunk);
        head.push(Buffer.from(chunk));
        if (size < check!.headBytes) return done();
        const { error, bytes } = judged(false);
        done(error, error ? undefined : bytes);
      },
      flush(done) {
        // A part with a file name is a file the sender chose, even an empty one: the check judges it
        // (a post without a chosen file has no file name and never gets here).
        if (!head) return done();
        const { error, bytes } = judged(true);
        done(error, error ? undefined : bytes);
      },
    });
    await pipeline(Readable.from(data), limit, createWriteStream(filePath));
    const file = new NodeOnDiskFile(filePath, contentType);
    file.name = filename;
    return file as unknown as File;
  };
}
