import { json } from "@remix-run/node";
import { findOccasion } from "~/domain/occasions";
import { formatRecipientNames } from "~/domain/recipient-names";
import { db } from "~/lib/db.server";
import { readForm } from "~/lib/form.server";
import { badRequest, isApiError } from "~/lib/http.server";
import { listRecipients } from "~/models/event.server";
import { formText } from "~/services/events/event-page-form.server";
import type { EventFormReply } from "~/services/events/event-page.server";
import { openArrangement, type ArrangeIntent } from "./context.server";
import { loadMusicPanel, musicIntents, uploadTrackFromPage } from "./music-panel.server";
import { loadPreviewPanel, previewIntents } from "./preview-panel.server";
import { loadRenderPanel, renderIntents } from "./render-panel.server";
import { loadThemePanel, themeIntents } from "./theme-panel.server";

// /e/{uuid}/arrange: the organiser's studio for the video — theme, music, preview, render and
// publish. Each part loads its own data and handles its own intents; this file only joins them.

export async function loadArrangePage(request: Request, rawUuid: string | undefined) {
  const context = await openArrangement(request, rawUuid);
  const { event } = context;
  const occasion = findOccasion(event.occasion);
  const names = formatRecipientNames(await listRecipients(db(), event.id), { firstNamesOnly: true });
  const [theme, music, preview, render] = await Promise.all([
    loadThemePanel(context),
    loadMusicPanel(context),
    loadPreviewPanel(context),
    loadRenderPanel(context),
  ]);
  return {
    event: {
      id: event.id,
      uuid: event.uuid,
      headline: event.title || `${names} — ${occasion?.label ?? "Chorus"}`,
      emoji: occasion?.emoji ?? "✨",
    },
    theme,
    music,
    preview,
    render,
  };
}

export type ArrangePage = Awaited<ReturnType<typeof loadArrangePage>>;

const INTENTS: Record<string, ArrangeIntent> = { ...themeIntents, ...musicIntents, ...previewIntents, ...renderIntents };

/** Runs one of the page's plain-form actions; a refused or invalid one answers the page with the reason. */
export async function runArrangeIntent(request: Request, rawUuid: string | undefined) {
  const multipart = (request.headers.get("content-type") ?? "").includes("multipart/form-data");
  const form = multipart ? null : await readForm(request);
  const intent = multipart ? "music-upload" : formText(form!, "intent");
  try {
    const context = await openArrangement(request, rawUuid);
    if (multipart) return await uploadTrackFromPage(context, request);
    const handler = INTENTS[intent];
    if (!handler) throw badRequest("This form is out of date. Reload the page and try again.");
    return await handler(context, form!);
  } catch (error) {
    if (isApiError(error)) {
      return json<EventFormReply>(
        { intent, formError: error.message, errors: error.fields },
        { status: error.status, headers: error.headers },
      );
    }
    throw error;
  }
}
