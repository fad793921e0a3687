// The files a contributor picked or recorded, kept in the browser (IndexedDB) until the server has
// them, so a reload, a discarded tab or a closed one sends them on by itself when the page opens
// again. Keyed by the upload's fingerprint, as the upload store (upload-store.ts) keys its entries.
// Decision 024 says what is kept, for how long, and what happens when a file cannot be kept.

/** The database and its store; the page's early uploader (early-uploads.server.ts) keeps files there too. */
export const KEPT_FILES_DATABASE = "chorus-files";
export const KEPT_FILES_STORE = "files";

/** A kept file is dropped this long after it was picked, sent or not (the server drops an unfinished upload sooner). */
const KEPT_FILE_DAYS = 7;

export interface KeptFile {
  fingerprint: string;
  eventUuid: string;
  purpose: "contribution" | "thank_you";
  /** What the form said when the file was sent, so it is sent on with the same words. */
  contributorName: string;
  caption: string;
  file: File;
  keptAt: number;
}

/** Why a file could not be kept, in words the page shows after "Your browser could not keep it:". */
export class NotKept extends Error {}

let opened: Promise<IDBDatabase> | null = null;

function request<T>(req: IDBRequest<T>) {
  return new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB request failed"));
  });
}

function open() {
  if (typeof indexedDB === "undefined") return Promise.reject(new NotKept("this browser does not keep files for pages"));
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(KEPT_FILES_DATABASE, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(KEPT_FILES_STORE, { keyPath: "fingerprint" });
    req.onsuccess = () => {
      const database = req.result;
      // Another tab upgrading later closes this connection; the next call opens it again.
      database.onversionchange = () => {
        database.close();
        opened = null;
      };
      resolve(database);
    };
    req.onerror = () => reject(new NotKept("this browser does not keep files here (private browsing?)"));
    req.onblocked = () => reject(new NotKept("another tab of this page is holding the browser's storage"));
  }).catch((error: unknown) => {
    opened = null;
    throw error;
  });
  return opened;
}

async function transaction<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) {
  const database = await open();
  const tx = database.transaction(KEPT_FILES_STORE, mode);
  const result = request(work(tx.objectStore(KEPT_FILES_STORE)));
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
  });
  return result;
}

let persistenceAsked = false;
/** Asks once that the browser not evict what it keeps for this site under storage pressure. */
function askPersistence() {
  if (persistenceAsked) return;
  persistenceAsked = true;
  void navigator.storage?.persist?.().catch(() => false);
}

/**
 * Keeps a file until it is sent. Throws `NotKept` with the reason when the browser cannot:
 * no IndexedDB, private browsing, or no room left.
 */
export async function keepFile(kept: Omit<KeptFile, "keptAt">) {
  askPersistence();
  try {
    await transaction("readwrite", (store) => store.put({ ...kept, keptAt: Date.now() }));
  } catch (error) {
    if (error instanceof NotKept) throw error;
    const name = (error as DOMException | null)?.name;
    throw new NotKept(
      name === "QuotaExceededError" ? "your phone has no room left for it" : "this browser refused to keep it (private browsing?)",
    );
  }
}

/** The files kept for one event's form, oldest first; files past their time are dropped here. */
export async function keptFiles(eventUuid: string, purpose: KeptFile["purpose"]): Promise<KeptFile[]> {
  let all: KeptFile[];
  try {
    all = await transaction("readonly", (store) => store.getAll() as IDBRequest<KeptFile[]>);
  } catch {
    return [];
  }
  const oldest = Date.now() - KEPT_FILE_DAYS * 24 * 60 * 60 * 1000;
  for (const stale of all.filter((k) => k.keptAt < oldest)) void forgetKeptFile(stale.fingerprint);
  return all
    .filter((k) => k.keptAt >= oldest && k.eventUuid === eventUuid && k.purpose === purpose && k.file instanceof Blob)
    .sort((a, b) => a.keptAt - b.keptAt);
}

/** Frees a file's storage: it was sent, cancelled or refused. */
export async function forgetKeptFile(fingerprint: string) {
  try {
    await transaction("readwrite", (store) => store.delete(fingerprint));
  } catch {
    // Nothing was kept, or the browser's storage is gone: either way nothing is left to free.
  }
}
