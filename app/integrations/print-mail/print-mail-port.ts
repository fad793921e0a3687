import type { PostalAddress } from "~/domain/postal-address";

// What the app needs from a print-and-mail service: a 4×6 postcard printed from our own front and back
// files and posted to one address, sent once per key, and its progress afterwards. Lob through its
// official SDK in production; with no key, a local service inside the app (docs/decisions/030-postcards.md).

export interface PostcardMailingInput {
  to: PostalAddress;
  /** Required by the service for a card posted abroad. */
  from: PostalAddress;
  /** Public links to the print files (single-page PDFs, 6.25×4.25 in with bleed). */
  frontUrl: string;
  backUrl: string;
  description: string;
  /** The same key always gives the same mailing: a retry after a crash or a time-out cannot post two cards. */
  idempotencyKey: string;
}

/** created: taken; printed; mailed: in the post; delivered; returned: the post gave it back. */
export type MailingStatus = "created" | "printed" | "mailed" | "delivered" | "returned";

export interface PostcardMailing {
  id: string;
  status: MailingStatus;
  /** The service's expected delivery day (YYYY-MM-DD), when it gives one. */
  expectedDelivery: string | null;
  /** Where the service's own proof can be seen, when it has one. */
  proofUrl: string | null;
  /** A page that says where the card is, when the service has one (Lob's API gives none for postcards). */
  trackingUrl: string | null;
}

/** The service failed or timed out; `retryable` says whether the same call may work later. */
export class PrintServiceError extends Error {
  override name = "PrintServiceError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

// The server entry and the Remix build each hold a copy of this module: recognised by name, not class.
export const isPrintServiceError = (error: unknown): error is PrintServiceError =>
  error instanceof Error && error.name === "PrintServiceError";

export interface PrintMailProvider {
  readonly name: "lob" | "local";
  createPostcard(input: PostcardMailingInput): Promise<PostcardMailing>;
  /** Null when the service has no such postcard. */
  getPostcard(id: string): Promise<PostcardMailing | null>;
}
