// How this browser knows a file's upload: the page's upload client (upload-client.ts) and the small
// uploader written into the page for a press before the app has started (early-uploads.server.ts)
// both find an upload they began by it, whichever of them began it, and so do the upload store and
// the files kept in the browser (upload-store.ts, kept-files.ts).

/** Where uploads are sent (tus): TUS_PATH on the server (tus-endpoint.server.ts). */
export const UPLOAD_ENDPOINT = "/uploads/tus";

/**
 * A file's key: its name, type, size and date, and where it is sent. It is tus-js-client's own
 * fingerprint for a file in a browser, so what that client stored before this function existed is
 * still found; the client is given this function, so the two can never differ.
 */
export const uploadFingerprint = (file: File) => ["tus-br", file.name, file.type, file.size, file.lastModified, UPLOAD_ENDPOINT].join("-");
