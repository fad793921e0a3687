// What the app needs from a tree-planting vendor: an order that plants a number of trees in a project,
// once per key. A Digital Humani-style REST API over plain HTTP in production; with no key, a local
// vendor inside the app (docs/decisions/028-trees-and-the-live-pot.md).

export interface TreePlantingInput {
  /** The vendor's reforestation project. */
  project: string;
  /** Whole trees, 1 to 100 per order. */
  count: number;
  /** The same key always gives the same order: a retry after a crash or a time-out plants once. */
  externalId: string;
}

export interface TreePlanting {
  id: string;
  externalId: string;
  project: string;
  count: number;
}

/** The vendor failed or timed out; `retryable` says whether the same call may work later. */
export class TreePlantingError extends Error {
  override name = "TreePlantingError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

// The server entry and the Remix build each hold a copy of this module: recognised by name, not class.
export const isTreePlantingError = (error: unknown): error is TreePlantingError =>
  error instanceof Error && error.name === "TreePlantingError";

export interface TreePlantingProvider {
  readonly name: "digital-humani" | "local";
  plant(input: TreePlantingInput): Promise<TreePlanting>;
}
