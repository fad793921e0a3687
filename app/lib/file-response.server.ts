import type { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import type { ParsedRange } from "~/lib/byte-range";

/** A stored file as it is to be sent: what a service decides, before any HTTP is written. */
export interface FileToSend {
  /** The whole file's size in bytes. */
  size: number;
  /** The type it goes out as. */
  contentType: string;
  /** Sent as a download under this name; null when it is shown in the browser. */
  attachmentName: string | null;
  /** The byte range asked for and met, "unsatisfiable" when it lies outside the file, null for the whole file. */
  range: ParsedRange | "unsatisfiable" | null;
  /** The bytes to send; null for a HEAD request and an unsatisfiable range. */
  body: Readable | null;
}

/** What a file request asks for, read from the request: its Range header, and whether it wants the bytes. */
export const fileRequestOf = (request: Request) => ({ range: request.headers.get("range"), withBody: request.method !== "HEAD" });

/**
 * The answer for a stored file, with HTTP range support (206 for a range, 416 when it cannot be met),
 * so phones can seek in long clips without fetching them whole; 404 when there is no file.
 */
export function fileResponse(file: FileToSend | null) {
  if (!file) return new Response("Not found", { status: 404 });
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
    "X-Content-Type-Options": "nosniff",
  });
  if (file.attachmentName !== null) headers.set("Content-Disposition", `attachment; filename="${file.attachmentName}"`);
  const { range, size, body } = file;
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
  } else {
    headers.set("Content-Length", String(size));
  }
  if (!body) return new Response(null, { status: 200, headers });
  return new Response(createReadableStreamFromReadable(body), { status: range ? 206 : 200, headers });
}

/** A generated file (a zip) as a download that no cache keeps. */
export function downloadResponse(body: Readable, download: { fileName: string; contentType: string }) {
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": download.contentType,
      "Content-Disposition": `attachment; filename="${download.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** What a file of a Chorus taken down answers to anyone but staff, whatever link they hold. */
export const withheldFileResponse = () =>
  new Response("This Chorus is unavailable.\n", { status: 410, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * What a file of a Chorus's video answers while payment holds it back (docs/decisions/045): 402
 * with the reason. Never kept by a cache, so the same link plays once the Chorus is unlocked.
 */
export const paymentRequiredFileResponse = (reason: string) =>
  new Response(`${reason}\n`, { status: 402, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** What a service decides about a file a link asks for: the file (null: none), or why it is not given. */
export type FileAnswer = { kind: "file"; file: FileToSend | null } | { kind: "withheld" } | { kind: "payment-required"; reason: string };

/** The answer for what a service decided about a file (`FileAnswer`). */
export function fileAnswerResponse(answer: FileAnswer) {
  if (answer.kind === "withheld") return withheldFileResponse();
  if (answer.kind === "payment-required") return paymentRequiredFileResponse(answer.reason);
  return fileResponse(answer.file);
}
