// How big the next chunk of a resumable upload is. A dropped connection re-sends at most the
// chunk it cut, so chunks start small (weak mobile links) and grow only while they arrive fast:
// every request costs a round trip, which on a fast link is most of a small chunk's time.

const MB = 1024 * 1024;

/** The first chunk, and the size after a failure: what a dropped mobile link re-sends at most. */
export const FIRST_CHUNK_BYTES = 2 * MB;
/** The largest chunk, reached only on a link that moves half of it in under FAST_CHUNK_MS. */
export const LARGEST_CHUNK_BYTES = 32 * MB;
/** A full chunk that arrives within this doubles the next one: re-sending it would cost about a second. */
export const FAST_CHUNK_MS = 1000;
/** A chunk slower than this halves the next one, so a cut on a link that got worse re-sends less. */
export const SLOW_CHUNK_MS = 4000;

/** The next chunk's size after a chunk of `current` bytes took `ms` to be accepted. */
export function nextChunkSize(current: number, sent: { bytes: number; ms: number }): number {
  // A short last piece says nothing about the link.
  if (sent.bytes < current) return current;
  if (sent.ms <= FAST_CHUNK_MS) return Math.min(current * 2, LARGEST_CHUNK_BYTES);
  if (sent.ms > SLOW_CHUNK_MS) return Math.max(Math.floor(current / 2), FIRST_CHUNK_BYTES);
  return current;
}

/** After a failed request the link is in doubt: start small again. */
export const chunkSizeAfterFailure = () => FIRST_CHUNK_BYTES;
