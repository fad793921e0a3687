import { findOccasion } from "~/domain/occasions";
import { formatRecipientNames } from "~/domain/recipient-names";
import { db } from "~/lib/db.server";
import { badRequest } from "~/lib/http.server";
import { listRecipients } from "~/models/event.server";
import { keepsakesOf } from "~/services/commerce/keepsakes.server";
import type { ArrangeContext, ArrangeIntent, ArrangeOutcome } from "./context.server";
import { loadMusicPanel, musicIntents } from "./music-panel.server";
import { loadPreviewPanel, previewIntents } from "./preview-panel.server";
import { loadRenderPanel, renderIntents } from "./render-panel.server";
import { loadThemePanel, themeIntents } from "./theme-panel.server";

// /e/{uuid}/arrange: the organiser's studio for the video — theme, music, preview, render and
// publish. Each part loads its own data and handles its own intents; this file only joins them.

export async function loadArrangePage(context: ArrangeContext) {
  const { event } = context;
  const occasion = findOccasion(event.occasion);
  const names = formatRecipientNames(await listRecipients(db(), event.id), { firstNamesOnly: true });
  const [theme, music, preview, render, keepsakes] = await Promise.all([
    loadThemePanel(context),
    loadMusicPanel(context),
    loadPreviewPanel(context),
    loadRenderPanel(context),
    keepsakesOf(event),
  ]);
  return {
    event: {
      id: event.id,
      uuid: event.uuid,
      headline: event.title || `${names} — ${occasion?.label ?? "Chorus"}`,
      occasion: event.occasion,
    },
    theme,
    music,
    preview,
    render,
    originals: keepsakes.originals,
  };
}

const INTENTS: Record<string, ArrangeIntent> = { ...themeIntents, ...musicIntents, ...previewIntents, ...renderIntents };

/** Runs one of the page's plain-form actions, by its `intent`; a refusal is thrown as an ApiError. */
export async function runArrangeIntent(context: ArrangeContext, intent: string, form: FormData): Promise<ArrangeOutcome> {
  const handler = INTENTS[intent];
  if (!handler) throw badRequest("This form is out of date. Reload the page and try again.");
  return handler(context, form);
}
