import {
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { payloadTooLarge } from "./http.server";
import { guardedBody } from "./request-body.server";

/** A multipart post as it arrives: its Content-Type (with the boundary) and its body, not yet read. */
export interface MultipartPost {
  contentType: string;
  body: ReadableStream<Uint8Array> | null;
}

export const multipartPostOf = (request: Request): MultipartPost => ({
  contentType: request.headers.get("content-type") ?? "",
  body: request.body,
});

/** Each field (a part that is not a file written to disk) is kept in memory up to this. */
const MAX_FIELD_BYTES = 16 * 1024;
/**
 * What a post may hold besides its files' bytes: its fields, and each part's boundary and headers,
 * all kept in memory as they are read. Remix's parser keeps a part's headers until they end, and
 * any number of fields of MAX_FIELD_BYTES each: without this, a post of nothing but headers or
 * fields would be held whole.
 */
const MAX_BYTES_BESIDE_FILES = 1024 * 1024;

/** What one post may carry: its files' handler refuses a larger file, this bounds the whole post. */
export interface MultipartLimits {
  maxFiles: number;
  maxFileBytes: number;
}

/**
 * Reads a multipart post part by part: its files through `files` (streamed to disk as they arrive,
 * never whole in memory), its other fields as text of at most MAX_FIELD_BYTES. The body is counted
 * as it streams (request-body.server.ts): past what `maxFiles` files of `maxFileBytes` and their
 * fields come to, or past MAX_BYTES_BESIDE_FILES of what is not a file's bytes, the reading stops
 * there with a 413 ApiError. Rejects like Remix's parser
 * when the body is not multipart.
 */
export function parseMultipartPost(post: MultipartPost, files: UploadHandler, limits: MultipartLimits): Promise<FormData> {
  const maxBytes = limits.maxFiles * limits.maxFileBytes + MAX_BYTES_BESIDE_FILES;
  let read = 0;
  let filesBytes = 0;
  const body =
    post.body &&
    guardedBody(post.body, (chunk) => {
      read += chunk.byteLength;
      return read > maxBytes || read - filesBytes > MAX_BYTES_BESIDE_FILES ? payloadTooLarge() : null;
    });
  // The bytes a file handler takes are counted as it takes them: they go to disk, not memory.
  const countedFiles: UploadHandler = (part) =>
    files({
      ...part,
      data: (async function* () {
        for await (const chunk of part.data) {
          filesBytes += chunk.byteLength;
          yield chunk;
        }
      })(),
    });
  const handler = unstable_composeUploadHandlers(countedFiles, unstable_createMemoryUploadHandler({ maxPartSize: MAX_FIELD_BYTES }));
  // Remix's streaming parser reads a Request: the post's own stream, under its own Content-Type.
  const init = { method: "POST", headers: { "content-type": post.contentType }, body, duplex: "half" };
  return unstable_parseMultipartFormData(new Request("http://localhost/", init as RequestInit), handler);
}
