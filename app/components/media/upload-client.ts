import { Upload, type DetailedError } from "tus-js-client";
import { chunkSizeAfterFailure, FIRST_CHUNK_BYTES, nextChunkSize } from "~/lib/browser/upload-chunk-size";
import { UPLOAD_ENDPOINT, uploadFingerprint } from "~/lib/browser/upload-fingerprint";
import { fileSignature, refusalForHead, SIGNATURE_BYTES } from "~/media/file-signature";

// What a picked file needs on its way up and the page does not need before: the resumable upload
// client, set up as Chorus speaks tus, the check of a file's first bytes and the shrinking of a large
// photo. upload-modules.ts loads this module when the first file is picked (or the file input is
// pressed), not with the page.

export { downscalePhoto } from "~/lib/browser/downscale-photo";

/** Retry for about ten minutes of bad signal before calling an upload failed. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000];

/** 4xx answers (refused, too large, closed) will not change on retry; network trouble and 5xx may. */
const shouldRetry = (error: DetailedError) => {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423;
};

function errorMessage(error: Error) {
  const response = (error as DetailedError).originalResponse;
  const body = response?.getBody();
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: string } };
      if (parsed.error?.message) return parsed.error.message;
    } catch {
      /* not our JSON */
    }
  }
  return response ? "The server refused this file." : "The connection dropped and did not come back. Tap Retry when you have signal.";
}

export interface UploadEvents {
  onProgress: (bytesSent: number) => void;
  /** The server named the media item the file becomes. */
  onMediaId: (mediaUuid: string) => void;
  /** The connection dropped: it is tried again after a delay, or at once when the browser is back online. */
  onWaiting: () => void;
  onSuccess: () => void;
  /** `refused`: the server answered (it will refuse again); otherwise the network gave up. */
  onError: (message: string, refused: boolean) => void;
}

/**
 * A resumable upload of `file` with `metadata`: chunks start at 2 MB and grow while they arrive
 * fast (upload-chunk-size.ts; tus-js-client reads its chunkSize afresh for every chunk), and it is
 * retried with backoff through about ten minutes of bad signal.
 */
export function createUpload(file: File, metadata: Record<string, string>, events: UploadEvents) {
  let chunkStarted = 0;
  const upload: Upload = new Upload(file, {
    endpoint: UPLOAD_ENDPOINT,
    fingerprint: (picked) => Promise.resolve(uploadFingerprint(picked as File)),
    chunkSize: FIRST_CHUNK_BYTES,
    retryDelays: RETRY_DELAYS,
    removeFingerprintOnSuccess: true,
    metadata,
    // The upload's own requests (its offset, its chunks, a cancel) are the uploader's alone: the server
    // answers them only with the token the upload was made with (docs/decisions/013).
    headers: metadata.uploadToken ? { "X-Upload-Token": metadata.uploadToken } : {},
    onShouldRetry: (error) => {
      upload.options.chunkSize = chunkSizeAfterFailure();
      const retrying = shouldRetry(error);
      if (retrying) events.onWaiting();
      return retrying;
    },
    onBeforeRequest: (req) => {
      if (req.getMethod() === "PATCH") chunkStarted = performance.now();
    },
    onChunkComplete: (bytes) => {
      upload.options.chunkSize = nextChunkSize(upload.options.chunkSize!, { bytes, ms: performance.now() - chunkStarted });
    },
    onProgress: (sent) => events.onProgress(sent),
    onAfterResponse: (_req, res) => {
      const mediaUuid = res.getHeader("Chorus-Media-Id");
      if (mediaUuid) events.onMediaId(mediaUuid);
    },
    onSuccess: () => events.onSuccess(),
    onError: (error) => events.onError(errorMessage(error), !!(error as DetailedError).originalResponse),
  });
  return upload;
}

/** The key tus-js-client (and the browser's upload store) know `file`'s upload by. */
export const fingerprintOf = (upload: Upload, file: File) => upload.options.fingerprint!(file, upload.options);

/**
 * Reads a file's first bytes and judges them as the server will (file-signature.ts), so a file
 * that would be refused costs the contributor no data. A file that cannot be read is left to the server.
 */
export async function judgeFirstBytes(file: Blob) {
  try {
    const head = new Uint8Array(await file.slice(0, SIGNATURE_BYTES).arrayBuffer());
    return { refusal: refusalForHead(head, { wholeFile: file.size <= SIGNATURE_BYTES }), signature: fileSignature(head) };
  } catch {
    return { refusal: null, signature: null };
  }
}
