import { fileSignature, refusalForHead, SIGNATURE_BYTES } from "~/media/file-signature";

// What a picked file needs on its way up and the page does not need before: the resumable upload
// client and the check of a file's first bytes. use-uploads.ts loads this module when the first file
// is picked (or the file input is pressed), not with the page.

export { Upload } from "tus-js-client";

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
