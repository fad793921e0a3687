import type { keepsakesOf } from "./keepsakes.server";

/** The add-ons' downloads a Chorus offers its organiser, as keepsakes.server.ts lists them. */
export type Keepsakes = Awaited<ReturnType<typeof keepsakesOf>>;
