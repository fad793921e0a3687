import type { Theme, User } from "drizzle/schema";
import { findBuiltInTheme, findThemeFont, THEME_FONTS } from "~/domain/built-in-themes";
import { HEX_COLOUR, opacityPercent, opaqueHex, withOpacity } from "~/domain/theme-colours";
import { db } from "~/lib/db.server";
import { badRequest, isApiError } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import type { Toast } from "~/lib/toast.server";
import { updateArrangement } from "~/models/arrangement.server";
import {
  archiveTheme,
  chooseTheme,
  createTheme,
  isBuiltIn,
  listThemes,
  restoreTheme,
  themeFor,
  themeView,
  updateTheme,
} from "~/services/arrange/themes.server";
import { formText } from "~/services/events/event-page-form.server";
import { queuePiecePreparation, queuePiecePreparationOfTheme } from "~/services/render/piece-preparation.server";
import type { ArrangeContext, ArrangeIntent, ArrangeOutcome } from "./context.server";

// The theme part of /e/{uuid}/arrange: a picker of the themes the organiser may use, and for
// their own themes a small editor. Every action goes back to #theme with a toast.

function themeCard(theme: Theme, user: User) {
  const view = themeView(theme);
  const font = findThemeFont(theme.fontUrl) ?? THEME_FONTS[0]!;
  return {
    id: view.id,
    name: view.name,
    description: theme.slug && isBuiltIn(theme) ? (findBuiltInTheme(theme.slug)?.description ?? "") : "",
    previewUrl: view.previewUrl,
    font: { url: font.url, name: font.name, cssFamily: font.cssFamily, weight: font.weight, style: font.style },
    fontColor: view.fontColor,
    textBoxColor: view.textBoxColor,
    fontSize: view.fontSize,
    textBoxScale: view.textBoxScale,
    isCollage: view.isCollage,
    isBuiltIn: view.isBuiltIn,
    isPremium: view.isPremium,
    isOwn: theme.ownerId === user.id,
  };
}

/** The themes to choose from (with the chosen one even if it is not the viewer's), and the deleted own ones. */
export async function loadThemePanel({ event, user }: ArrangeContext) {
  const [themes, chosen] = await Promise.all([listThemes(user, { withArchived: true }), themeFor(event.id)]);
  const live = themes.filter((t) => !t.archivedAt);
  // An admin may have chosen a theme of their own for someone else's event: it still shows.
  if (!live.some((t) => t.id === chosen.id)) live.push(chosen);
  return {
    chosenId: chosen.id,
    themes: live.map((t) => themeCard(t, user)),
    deleted: themes.filter((t) => t.archivedAt).map((t) => ({ id: t.id, name: t.name })),
    fonts: THEME_FONTS.map((f) => ({ url: f.url, name: f.name, cssFamily: f.cssFamily, weight: f.weight, style: f.style })),
    /** The chosen theme's colours as the editor's inputs want them. */
    editor: {
      fontColor: opaqueHex(chosen.fontColor),
      textBoxColor: opaqueHex(chosen.textBoxColor),
      textBoxOpacity: opacityPercent(chosen.textBoxColor),
    },
  };
}

const backToThemes = (toast: Toast): ArrangeOutcome => ({ section: "theme", toast });

function themeIdOf(form: FormData) {
  const value = formText(form, "themeId");
  if (!value) throw badRequest("Choose a theme first.", { themeId: "Choose a theme." });
  return uuidParam(value, "theme");
}

const SAVED_FIELDS = ["themeId", "name", "fontColor", "textBoxColor", "textBoxOpacity", "fontUrl", "fontSize", "textBoxScale"] as const;

/** The editor's fields as theme changes: the box colour and its opacity make one #rrggbbaa colour. */
function changesFromForm(form: FormData) {
  const boxColour = formText(form, "textBoxColor").trim();
  const opacity = Number(formText(form, "textBoxOpacity"));
  const opacityOk = formText(form, "textBoxOpacity") !== "" && Number.isFinite(opacity) && opacity >= 0 && opacity <= 100;
  if (!opacityOk)
    throw badRequest("Some fields need your attention.", { textBoxOpacity: "Give the box opacity in percent, from 0 to 100." });
  return {
    name: formText(form, "name"),
    fontColor: formText(form, "fontColor").trim(),
    textBoxColor: HEX_COLOUR.test(boxColour) ? withOpacity(boxColour, opacity) : boxColour,
    fontUrl: formText(form, "fontUrl"),
    fontSize: formText(form, "fontSize"),
    textBoxScale: formText(form, "textBoxScale"),
  };
}

export const themeIntents: Record<string, ArrangeIntent> = {
  async "theme-choose"(context, form) {
    const theme = await chooseTheme(context.user, context.event.id, themeIdOf(form));
    // Every scene looks different in the new theme: render them ahead of publishing.
    await queuePiecePreparation(context.event.id);
    return backToThemes({ type: "success", title: "Theme chosen", description: `Your video will use ${theme.name}.` });
  },
  async "theme-customise"(context, form) {
    const basedOn = formText(form, "themeId") ? themeIdOf(form) : (await themeFor(context.event.id)).id;
    const theme = await createTheme(context.user, { basedOn });
    await updateArrangement(db(), context.event.id, { themeId: theme.id });
    await queuePiecePreparation(context.event.id);
    return backToThemes({
      type: "success",
      title: "Your own copy is ready",
      description: "Change its colours and font below. Your video uses it now.",
    });
  },
  async "theme-save"(context, form) {
    try {
      const theme = await updateTheme(context.user, themeIdOf(form), changesFromForm(form));
      // Every scene of every video in this theme looks different now.
      await queuePiecePreparationOfTheme(theme.id);
      return backToThemes({ type: "success", title: "Theme saved", description: `${theme.name} is saved.` });
    } catch (error) {
      if (!isApiError(error)) throw error;
      // Answered here rather than by the page, so the editor shows what was typed.
      const values = Object.fromEntries(SAVED_FIELDS.map((k) => [k, formText(form, k)]));
      return { reply: { intent: "theme-save", formError: error.message, errors: error.fields, values }, status: error.status };
    }
  },
  async "theme-delete"(context, form) {
    const id = themeIdOf(form);
    const wasInUse = (await themeFor(context.event.id)).id === id;
    const theme = await archiveTheme(context.user, id);
    await queuePiecePreparationOfTheme(theme.id);
    const note = wasInUse ? ` This video uses ${(await themeFor(context.event.id)).name} until you restore it or choose another.` : "";
    return backToThemes({ type: "success", title: "Theme deleted", description: `${theme.name} is deleted.${note}` });
  },
  async "theme-restore"(context, form) {
    const theme = await restoreTheme(context.user, themeIdOf(form));
    await queuePiecePreparationOfTheme(theme.id);
    return backToThemes({ type: "success", title: "Theme restored", description: `${theme.name} is back in your themes.` });
  },
};
