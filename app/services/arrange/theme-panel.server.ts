import type { ArrangeContext, ArrangeIntent } from "./context.server";

/** The theme part of the arrange page: what it shows. */
export async function loadThemePanel(_context: ArrangeContext) {
  return {};
}

/** The theme part's plain-form actions, by intent. */
export const themeIntents: Record<string, ArrangeIntent> = {};
