import type { ArrangeContext, ArrangeIntent } from "./context.server";

/** The music part of the arrange page: what it shows. */
export async function loadMusicPanel(_context: ArrangeContext) {
  return {};
}

/** The music part's plain-form actions, by intent. */
export const musicIntents: Record<string, ArrangeIntent> = {};
