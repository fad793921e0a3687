// The piece store's contract (docs/decisions/011, 033): where rendered pieces are kept between
// renders, by key. Renders, preparation and scene parts use it; the app keeps pieces in the
// database and storage (app/services/render/render-pieces.server.ts), the benches and media tests
// in a folder.

/** A rendered piece's files, as local paths ready for ffmpeg. */
export interface StoredPiece {
  files: Record<string, string>;
  frames: number;
}

/** Where rendered pieces are kept between renders, by key. */
export interface PieceStore {
  /** Whether the piece is stored whole, without fetching its files (and, like `get`, marks it used). */
  has(key: string): Promise<boolean>;
  /**
   * The piece with its files as local paths, or null. With `only`, just those of its files are
   * fetched (where fetching costs: from S3), though the piece counts as stored only when all are.
   */
  get(key: string, only?: readonly string[]): Promise<StoredPiece | null>;
  /**
   * Keeps the files (they may be moved) and answers where they now are. `timing`: how long making
   * it took, for the time estimates of later renders.
   */
  put(key: string, kind: string, files: Record<string, string>, frames: number, timing?: PieceTiming): Promise<StoredPiece>;
  /**
   * Keeps processes from making the same piece at once. Without it (a store of one process) the
   * renders of this process are all there is.
   */
  claims?: PieceClaims;
}

/** The claim a process holds on a piece while it makes it (docs/decisions/033). */
export interface PieceClaims {
  /** Runs `work` while no other process is making the piece; answers `held: false` at once when one is. */
  claim<T>(key: string, work: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }>;
  /**
   * Resolves once no other process holds the piece's claim (it made the piece, or stopped), without
   * asking again and again meanwhile; rejects with an AbortError when `signal` aborts first.
   */
  waitFor(key: string, signal?: AbortSignal): Promise<void>;
}

/** How long a piece took to make: wall-clock seconds for its output frames at an output size. */
export interface PieceTiming {
  resolution: string;
  seconds: number;
  frames: number;
}
