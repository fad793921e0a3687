import { Configuration, PostcardsApi, PostcardSize, type AddressEditable, type Postcard } from "@lob/lob-typescript-sdk";
import type { PostalAddress } from "~/domain/postal-address";
import { PrintServiceError, type MailingStatus, type PostcardMailing, type PrintMailProvider } from "./print-mail-port";

export interface LobSettings {
  apiKey: string;
  /** Lob's API unless set (a stand-in in tests). */
  baseUrl?: string;
  timeoutMs: number;
}

const asLobAddress = (address: PostalAddress): AddressEditable =>
  ({
    name: address.name,
    address_line1: address.line1,
    address_line2: address.line2,
    address_city: address.city,
    address_state: address.region,
    address_zip: address.postalCode,
    address_country: address.country,
  }) as AddressEditable;

// Lob's tracking events, newest last, as the few states a person needs.
const TRACKING: Readonly<Record<string, MailingStatus>> = {
  Mailed: "mailed",
  "In Transit": "mailed",
  "In Local Area": "mailed",
  "Processed for Delivery": "mailed",
  "Re-Routed": "mailed",
  Delivered: "delivered",
  "Returned to Sender": "returned",
};

function asMailing(postcard: Postcard): PostcardMailing {
  // Past its send date a card is in production; the post's scans say the rest.
  const sendDate = postcard.send_date ? Date.parse(postcard.send_date) : NaN;
  let status: MailingStatus = sendDate <= Date.now() ? "printed" : "created";
  for (const event of postcard.tracking_events ?? []) status = TRACKING[event.name] ?? status;
  return {
    id: postcard.id,
    status,
    expectedDelivery: postcard.expected_delivery_date ?? null,
    proofUrl: postcard.url ?? null,
    // A postcard goes First-Class without a tracking number: Lob reports the post's scans as events.
    trackingUrl: null,
  };
}

const statusOf = (error: unknown): number | undefined => (error as { response?: { status?: number } } | null)?.response?.status;

/** The SDK's (axios's) failures as the port's: a plain message, and whether trying again may work. */
function asServiceError(error: unknown): PrintServiceError {
  const status = statusOf(error);
  if (status === undefined) return new PrintServiceError("The print service could not be reached.", true);
  if (status === 429 || status >= 500) return new PrintServiceError("The print service had a problem on its side.", true);
  if (status === 401 || status === 403) console.error("The print service refused our credentials.");
  return new PrintServiceError("The print service refused this postcard.", false);
}

/** Lob through its official SDK: 4×6 postcards from our PDFs, one per Idempotency-Key. */
export function lobProvider(settings: LobSettings): PrintMailProvider {
  const configuration = new Configuration({
    username: settings.apiKey,
    basePath: settings.baseUrl,
    baseOptions: { timeout: settings.timeoutMs },
  });
  const postcards = new PostcardsApi(configuration);

  return {
    name: "lob",
    async createPostcard(input) {
      try {
        const made = await postcards.create(
          {
            to: asLobAddress(input.to),
            from: asLobAddress(input.from),
            size: PostcardSize._4x6,
            front: input.frontUrl,
            back: input.backUrl,
            description: input.description,
            use_type: "operational",
          } as never,
          // Lob answers a repeated Idempotency-Key with the postcard it made the first time.
          input.idempotencyKey,
        );
        return asMailing(made);
      } catch (error) {
        throw asServiceError(error);
      }
    },
    async getPostcard(id) {
      try {
        return asMailing(await postcards.get(id));
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw asServiceError(error);
      }
    },
  };
}
