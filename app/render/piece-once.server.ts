// One piece is made once, whoever asks: a render and the render-ahead job of the same Chorus, in
// this process or another, never both run ffmpeg for the same key. The one that comes second waits
// for the first and then uses the stored piece.

import type { PieceStore } from "./piece-store";
import { renderSlots } from "./slots.server";

// Pieces being made in this process, by key: whoever else wants one waits for it.
const inFlight = new Map<string, Promise<unknown>>();

const abortError = () => Object.assign(new Error("The render was cancelled."), { name: "AbortError" });

/** Waits for `promise` to settle, however it ends, or rejects when `signal` aborts first. */
function settled(promise: Promise<unknown>, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const stop = () => reject(abortError());
    signal?.addEventListener("abort", stop, { once: true });
    const end = () => {
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    promise.then(end, end);
  });
}

/**
 * The piece under `key`: found by `lookUp` when stored, else made by `make` in a render slot
 * (`inSlot: false`: beside them, for a job of one thread such as the soundtrack), holding the
 * store's claim on the key. When this process or another is making it already, waits for that and
 * looks it up again (made by someone else, it counts as found). `made` says which.
 */
export async function pieceOnce<T>(
  key: string,
  options: {
    store: PieceStore;
    signal?: AbortSignal;
    lookUp: () => Promise<T | null>;
    make: () => Promise<T>;
    /** Its place among the jobs waiting for a render slot (SLOT_PRIORITY); a scene's when not given. */
    priority?: number;
    /** False: made outside the render slots (the soundtrack, one thread, beside them). */
    inSlot?: boolean;
  },
): Promise<{ value: T; made: boolean }> {
  const { store, signal, lookUp, make, priority } = options;
  const claims = store.claims;
  const run = <R>(job: () => Promise<R>) => (options.inSlot === false ? job() : renderSlots().run(job, signal, priority));
  for (;;) {
    const running = inFlight.get(key);
    if (running) await settled(running, signal);
    const found = await lookUp();
    if (found !== null) return { value: found, made: false };
    if (inFlight.has(key)) continue;
    const attempt = (async () => {
      const outcome = await run(async () => {
        // Looked up again in the slot: it may have been stored while this waited for one.
        const inner = async () => {
          const again = await lookUp();
          return again !== null ? { value: again, made: false } : { value: await make(), made: true };
        };
        if (!claims) return { held: true as const, value: await inner() };
        return claims.claim(key, inner);
      });
      // Another process is making it: waited for with the slot given back, blocked on its claim
      // rather than looking again and again, then looked up (made, or left to make when that
      // process stopped). Kept in flight meanwhile, so this process waits on one connection.
      if (!outcome.held) await claims!.waitFor(key, signal);
      return outcome;
    })();
    inFlight.set(key, attempt);
    try {
      const outcome = await attempt;
      if (outcome.held) return outcome.value;
    } finally {
      inFlight.delete(key);
    }
  }
}
