import type { MailingStatus, PostcardMailing, PostcardMailingInput, PrintMailProvider } from "./print-mail-port";

export interface LocalMailingRow {
  id: string;
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
 * printed, mailed and delivered one step every `stepMs`; its proof is at /local-postcards/{id}.
 */
export function localPrintMailProvider(settings: LocalPrintSettings): PrintMailProvider {
  const now = settings.now ?? (() => new Date());
  const asMailing = (row: LocalMailingRow): PostcardMailing => {
    const elapsed = now().getTime() - row.createdAt.getTime();
    const step = settings.stepMs <= 0 ? STEPS.length - 1 : Math.min(STEPS.length - 1, Math.floor(elapsed / settings.stepMs));
    const delivery = new Date(row.createdAt.getTime() + settings.stepMs * (STEPS.length - 1));
    return {
      id: row.id,
      status: STEPS[Math.max(0, step)]!,
      expectedDelivery: delivery.toISOString().slice(0, 10),
      proofUrl: new URL(`/local-postcards/${row.id}`, settings.appUrl).toString(),
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
