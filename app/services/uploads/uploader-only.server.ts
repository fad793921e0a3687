import type { IncomingMessage, ServerResponse } from "node:http";
import { ERRORS, type Server, TUS_RESUMABLE } from "@tus/server";
import { keysMatch } from "~/lib/event-keys.server";
import { hashToken } from "~/lib/tokens.server";
import { uploadTokenHashOf } from "~/services/uploads/media-intake.server";
import { uploadIdOf } from "~/services/uploads/upload-completion.server";

// An upload's address gives a stranger nothing (docs/decisions/013). Asking for its offset (HEAD),
// adding bytes (PATCH) or removing it (DELETE) needs the token its uploader's browser made it with,
// sent in X-Upload-Token as for every other request about their contribution; without it the answer
// is the one for an upload that does not exist. Creating an upload needs no token of the caller's
// own, and reading a finished one back (GET) is a page route with its own check.

const GUARDED = new Set(["HEAD", "PATCH", "DELETE"]);
/** Uploads whose token digest this process has read, so a chunk after the first reads nothing more. */
const REMEMBERED = 2000;

/** Answers (and returns true) a request to an upload from anyone but its uploader; otherwise leaves it. */
export function uploaderOnly(tus: Server, corsOrigin: string) {
  const digests = new Map<string, string | null>();
  const digestOf = async (id: string) => {
    if (digests.has(id)) return digests.get(id)!;
    const upload = await tus.datastore.getUpload(id).catch(() => null);
    // Unknown or gone: tus gives its own answer (404 or 410), and nothing is remembered.
    if (!upload) return undefined;
    const digest = uploadTokenHashOf(upload.metadata);
    digests.set(id, digest);
    if (digests.size > REMEMBERED) digests.delete(digests.keys().next().value!);
    return digest;
  };

  return async (req: IncomingMessage, res: ServerResponse) => {
    if (!GUARDED.has(req.method ?? "")) return false;
    const id = uploadIdOf(req.url);
    if (!id) return false;
    const digest = await digestOf(id);
    if (digest === undefined) return false;
    const given = req.headers["x-upload-token"];
    if (digest && typeof given === "string" && keysMatch(hashToken(given.trim()), digest)) return false;
    const notFound = ERRORS.FILE_NOT_FOUND;
    res.writeHead(notFound.status_code, {
      "Tus-Resumable": TUS_RESUMABLE,
      "Access-Control-Allow-Origin": corsOrigin,
      "Cache-Control": "no-store",
      // A refused chunk's body is not read: the connection is not reused for another request.
      ...(req.method === "PATCH" ? { Connection: "close" } : {}),
    });
    res.end(req.method === "HEAD" ? undefined : notFound.body);
    return true;
  };
}
