import { postcardDeliveryDay } from "~/domain/delivery-estimate";
import type { PostalAddress } from "~/domain/postal-address";
import type { MailingStatus, PostcardMailing, PostcardMailingInput, PrintMailProvider } from "./print-mail-port";

export interface LocalMailingRow {
  id: string;
  toAddress: PostalAddress;
  createdAt: Date;
}

/** Where the local service keeps its postcards (PostgreSQL, so every process sees them and they survive restarts). */
export interface LocalMailingStore {
  /** Inserts the mailing, or returns the one already made with this key. */
  insertOnce(mailing: { id: string; input: PostcardMailingInput }): Promise<LocalMailingRow>;
  find(id: string): Promise<LocalMailingRow | null>;
}

export interface LocalPrintSettings {
  appUrl: string;
  store: LocalMailingStore;
  /** How long each step (printed, mailed, delivered) takes after the one before, as a real service's would take days. */
  stepMs: number;
  newId: () => string;
  now?: () => Date;
}

const STEPS: MailingStatus[] = ["created", "printed", "mailed", "delivered"];

/**
 * A print-and-mail service inside the app, for machines with no Lob key: a postcard is created, then
 * printed, mailed and delivered one step every `stepMs`. Its expected delivery is the one a real
 * service would give (business days from when it took the card), not the end of those quick steps;
 * its page, /local-postcards/{id}, is both its proof and where it says the card is.
 */
export function localPrintMailProvider(settings: LocalPrintSettings): PrintMailProvider {
  const now = settings.now ?? (() => new Date());
  const asMailing = (row: LocalMailingRow): PostcardMailing => {
    const elapsed = now().getTime() - row.createdAt.getTime();
    const step = settings.stepMs <= 0 ? STEPS.length - 1 : Math.min(STEPS.length - 1, Math.floor(elapsed / settings.stepMs));
    const page = new URL(`/local-postcards/${row.id}`, settings.appUrl).toString();
    return {
      id: row.id,
      status: STEPS[Math.max(0, step)]!,
      expectedDelivery: postcardDeliveryDay(row.createdAt, row.toAddress.country),
      proofUrl: page,
      trackingUrl: page,
    };
  };
  return {
    name: "local",
    async createPostcard(input) {
      return asMailing(await settings.store.insertOnce({ id: settings.newId(), input }));
    },
    async getPostcard(id) {
      const row = await settings.store.find(id);
      return row ? asMailing(row) : null;
    },
  };
}
