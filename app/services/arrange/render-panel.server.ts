import type { ArrangeContext, ArrangeIntent } from "./context.server";

/** The render part of the arrange page: what it shows. */
export async function loadRenderPanel(_context: ArrangeContext) {
  return {};
}

/** The render part's plain-form actions, by intent. */
export const renderIntents: Record<string, ArrangeIntent> = {};
