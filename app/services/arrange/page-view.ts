import type { loadArrangePage } from "./page.server";

/** The arrange page as its panels are handed it (app/components/arrange/), as page.server.ts loads it. */
export type ArrangePage = Awaited<ReturnType<typeof loadArrangePage>>;
