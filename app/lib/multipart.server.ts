import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";

/** A multipart post as it arrives: its Content-Type (with the boundary) and its body, not yet read. */
export interface MultipartPost {
  contentType: string;
  body: ReadableStream<Uint8Array> | null;
}

export const multipartPostOf = (request: Request): MultipartPost => ({
  contentType: request.headers.get("content-type") ?? "",
  body: request.body,
});

/**
 * Reads a multipart post part by part, each through `handler` (files streamed to disk as they
 * arrive, never whole in memory). Rejects like Remix's parser when the body is not multipart.
 */
export function parseMultipartPost(post: MultipartPost, handler: UploadHandler): Promise<FormData> {
  // Remix's streaming parser reads a Request: the post's own stream, under its own Content-Type.
  const init = { method: "POST", headers: { "content-type": post.contentType }, body: post.body, duplex: "half" };
  return unstable_parseMultipartFormData(new Request("http://localhost/", init as RequestInit), handler);
}
