import type { ArrangeContext, ArrangeIntent } from "./context.server";

/** The preview part of the arrange page: what it shows. */
export async function loadPreviewPanel(_context: ArrangeContext) {
  return {};
}

/** The preview part's plain-form actions, by intent. */
export const previewIntents: Record<string, ArrangeIntent> = {};
