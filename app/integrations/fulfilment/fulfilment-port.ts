import type { PostalAddress } from "~/domain/postal-address";

// What the app needs from a fulfilment service that makes something and posts it
// (docs/decisions/029-dvds-and-keepsakes-by-post.md): place one order, and read how far it got.
// A DVD goes to an Acutrack-like disc service, a photo book to an Heirloom-like printer, each over
// plain HTTP; with no key, a local service inside the app that moves orders along over time.

export interface FulfilmentOrderInput {
  /** The same key always gives the same order: a retry after a crash or a time-out cannot post two. */
  externalId: string;
  quantity: number;
  address: PostalAddress;
  /** The Chorus's title, printed on the label or the cover. */
  title: string;
  /** Where the service fetches the video (burnt to the disc, or the book's stills taken from it). */
  videoUrl: string;
  /** Where it fetches the label or cover art Chorus made (a PDF). */
  artUrl: string;
}

/** received: taken, not yet made; printed: made, not yet posted; shipped: posted; failed: it never will be. */
export type FulfilmentStatus = "received" | "printed" | "shipped" | "failed";

export interface FulfilmentOrder {
  id: string;
  externalId: string;
  status: FulfilmentStatus;
  trackingNumber: string | null;
  /** Where the parcel can be followed: the carrier's page once posted, or the service's own order page. */
  trackingUrl: string | null;
  /** The service's expected delivery day (YYYY-MM-DD), when it gives one. */
  expectedDelivery: string | null;
}

/** The service failed or timed out; `retryable` says whether the same call may work later. */
export class FulfilmentServiceError extends Error {
  override name = "FulfilmentServiceError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

// The server entry and the Remix build each hold a copy of this module: recognised by name, not class.
export const isFulfilmentServiceError = (error: unknown): error is FulfilmentServiceError =>
  error instanceof Error && error.name === "FulfilmentServiceError";

export interface FulfilmentProvider {
  readonly name: string;
  createOrder(input: FulfilmentOrderInput): Promise<FulfilmentOrder>;
  /** Null when the service has no such order. */
  getOrder(id: string): Promise<FulfilmentOrder | null>;
}
