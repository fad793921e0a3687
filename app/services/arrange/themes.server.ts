import type { Theme, User } from "drizzle/schema";
import { z } from "zod";
import {
  BUILT_IN_THEMES,
  builtInThemeLook,
  COLLAGE_PHOTOS,
  DEFAULT_THEME_SLUG,
  findThemeFont,
  PREMIUM_BACKGROUND_URLS,
  previewUrlFor,
  THEME_BACKGROUND_URLS,
  type ThemeLook,
  themeLookOf,
} from "~/domain/built-in-themes";
import { CAPTION_CONTRAST_MINIMUM, captionContrast, HEX_COLOUR, normaliseHexColour } from "~/domain/theme-colours";
import { db } from "~/lib/db.server";
import { badRequest, forbidden, isApiError, notFound, parseWith } from "~/lib/http.server";
import { findArrangement, updateArrangement } from "~/models/arrangement.server";
import {
  countOwnThemes,
  findThemeById,
  findThemeBySlug,
  insertTheme,
  listThemesVisibleTo,
  setOwnThemeArchived,
  updateOwnTheme,
  upsertBuiltInThemes,
} from "~/models/theme.server";

// Themes (spec §3 Theme, §4 "Themes can be deleted and restored", §7.2 /v2/themes). Built-in
// themes are public and belong to nobody: nobody edits or deletes them. An organiser changes a
// theme by making their own copy; deleting one of theirs archives it, and it can be restored.

/** Enough for anyone; a bound so a script cannot fill the table. */
export const MAX_OWN_THEMES = 100;

export const isBuiltIn = (theme: Theme) => theme.ownerId === null && theme.slug !== null;

/** A theme as the API answers it: the spec's fields, plus what a client needs to show it. */
export function themeView(theme: Theme) {
  return {
    id: theme.id,
    name: theme.name,
    introUrl: theme.introUrl,
    outroUrl: theme.outroUrl,
    fontUrl: theme.fontUrl,
    fontColor: theme.fontColor,
    fontSize: theme.fontSize,
    fontLineSpacing: theme.fontLineSpacing,
    textBoxColor: theme.textBoxColor,
    textBoxScale: theme.textBoxScale,
    isCollage: theme.isCollage,
    isPublic: theme.isPublic,
    scenes: theme.scenes,
    basedOnId: theme.basedOnId,
    isBuiltIn: isBuiltIn(theme),
    /** Rendering with it needs the premium finish; choosing and previewing it does not. */
    isPremium: theme.isPremium,
    previewUrl: previewUrlFor(theme.introUrl),
    archived: theme.archivedAt !== null,
  };
}

/** Writes the built-in themes at start-up (by slug), so every database has them. */
export async function ensureBuiltInThemes() {
  await upsertBuiltInThemes(db(), BUILT_IN_THEMES.map(builtInThemeLook));
}

const builtInOrder = (theme: Theme) => {
  const index = BUILT_IN_THEMES.findIndex((t) => t.slug === theme.slug);
  return isBuiltIn(theme) && index >= 0 ? index : BUILT_IN_THEMES.length;
};

/** What `user` may choose from: built-ins in their designed order, then their own, oldest first. */
export async function listThemes(user: User | null, options: { withArchived?: boolean } = {}) {
  const rows = await listThemesVisibleTo(db(), user?.id ?? null, options);
  // A stable sort: own themes keep the model's creation order behind the built-ins.
  return rows.sort((a, b) => builtInOrder(a) - builtInOrder(b));
}

const canSee = (user: User | null, theme: Theme) => (theme.isPublic && !theme.archivedAt) || (!!user && theme.ownerId === user.id);

/** A theme `user` may see (public, or their own); anything else is not found. */
export async function findVisibleTheme(user: User | null, id: string) {
  const theme = await findThemeById(db(), id);
  if (!theme || !canSee(user, theme)) throw notFound("There is no theme with this id.");
  return theme;
}

/** A theme `user` may change: only their own. Built-in and other people's themes are refused. */
async function requireOwnTheme(user: User, id: string) {
  const theme = await findThemeById(db(), id);
  if (!theme) throw notFound("There is no theme with this id.");
  if (theme.ownerId === null) throw forbidden("Built-in themes can't be changed or deleted. Make your own copy of it and change that.");
  if (theme.ownerId !== user.id) throw forbidden("This theme belongs to someone else: only they can change or delete it.");
  return theme;
}

// ——— Validation ———

const colour = z
  .string({ error: "Choose a colour." })
  .trim()
  .regex(HEX_COLOUR, "Use a colour like #1f5fd6, or #1f5fd6cc to let the picture show through.")
  .transform(normaliseHexColour);

const number = (what: string, min: number, max: number) =>
  z.coerce
    .number({ error: `Enter the ${what} as a number.` })
    .min(min, `The ${what} is ${min} at least.`)
    .max(max, `The ${what} is ${max} at most.`);

const scene = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("single") }).strict(),
    z
      .object({
        kind: z.literal("collage"),
        photos: z
          .number({ error: `Say how many photos (${COLLAGE_PHOTOS.min}–${COLLAGE_PHOTOS.max}) share the frame.` })
          .int()
          .min(COLLAGE_PHOTOS.min, `A collage has ${COLLAGE_PHOTOS.min} photos at least.`)
          .max(COLLAGE_PHOTOS.max, `A collage has ${COLLAGE_PHOTOS.max} photos at most.`),
      })
      .strict(),
  ],
  { error: 'A scene is {"kind":"single"} or {"kind":"collage","photos":2}.' },
);

const shipped = (list: readonly string[], message: string) => z.string({ error: message }).refine((url) => list.includes(url), message);

/** Every field a theme's owner may set. Colours are stored in one spelling (see normaliseHexColour). */
const themeFields = z.object({
  name: z.string({ error: "Give the theme a name." }).trim().min(1, "Give the theme a name.").max(60, "Keep the name under 60 characters."),
  introUrl: shipped(THEME_BACKGROUND_URLS, "Choose one of the intro pictures that come with the themes."),
  outroUrl: shipped(THEME_BACKGROUND_URLS, "Choose one of the outro pictures that come with the themes."),
  fontUrl: z.string({ error: "Choose one of the theme fonts." }).refine((url) => !!findThemeFont(url), "Choose one of the theme fonts."),
  fontColor: colour,
  textBoxColor: colour,
  fontSize: number("text size", 24, 120).int("Use a whole number of pixels for the text size."),
  fontLineSpacing: number("line spacing", 0.8, 2),
  textBoxScale: number("text box size", 0.5, 2),
  isCollage: z.boolean({ error: "isCollage is true or false." }),
  scenes: z
    .array(scene, { error: "Scenes are a list." })
    .min(1, "A theme needs one scene at least.")
    .max(12, "A theme has 12 scenes at most."),
});

export const themeChanges = themeFields.partial();

const newThemeInput = themeChanges.extend({ basedOn: z.uuid("Say which theme yours is based on (basedOn: a theme id).") });

const lookOf = (theme: Theme): ThemeLook & { name: string } => ({ name: theme.name, ...themeLookOf(theme) });

/** The theme after `changes`, checked as a whole: what no single field can tell. */
function changedLook(current: ThemeLook & { name: string }, changes: z.infer<typeof themeChanges>) {
  const look = { ...current, ...changes };
  // Turning collage off without saying which scenes: every item gets the frame to itself.
  if (changes.isCollage === false && !changes.scenes) look.scenes = [{ kind: "single" }];
  const fields: Record<string, string> = {};
  const collages = look.scenes.some((s) => s.kind === "collage");
  if (look.isCollage && !collages) fields.scenes = "A collage theme needs one collage scene at least.";
  if (!look.isCollage && collages) fields.scenes = "Only a collage theme has collage scenes: set isCollage, or use single scenes.";
  const contrast = captionContrast(look.fontColor, look.textBoxColor);
  if (contrast < CAPTION_CONTRAST_MINIMUM) {
    fields.fontColor = `The text would be hard to read on its box (contrast ${contrast.toFixed(1)}:1, and ${CAPTION_CONTRAST_MINIMUM}:1 is needed). Make one of them lighter or darker, or the box less see-through.`;
  }
  if (Object.keys(fields).length) throw badRequest("Some fields need your attention.", fields);
  return look;
}

/**
 * An organiser's own theme is premium when it was copied from a premium one (and stays so through
 * its changes), or when it shows a premium theme's intro or outro picture.
 */
const premiumOwnTheme = (premiumBefore: boolean, look: ThemeLook) =>
  premiumBefore || PREMIUM_BACKGROUND_URLS.includes(look.introUrl) || PREMIUM_BACKGROUND_URLS.includes(look.outroUrl);

// ——— Use cases ———

/** A theme of the user's own, copied from one they can see, with any changes applied. */
export async function createTheme(user: User, input: unknown) {
  const { basedOn, ...changes } = parseWith(newThemeInput, input);
  const base = await findVisibleTheme(user, basedOn).catch((error: unknown) => {
    throw isApiError(error) && error.status === 404
      ? badRequest("Some fields need your attention.", { basedOn: "There is no theme with this id." })
      : error;
  });
  if ((await countOwnThemes(db(), user.id)) >= MAX_OWN_THEMES) {
    throw badRequest(`You have ${MAX_OWN_THEMES} themes already. Delete one you no longer use first.`);
  }
  const look = changedLook({ ...lookOf(base), name: `${base.name} (copy)` }, changes);
  return insertTheme(db(), {
    ...look,
    ownerId: user.id,
    isPublic: false,
    basedOnId: base.id,
    isPremium: premiumOwnTheme(base.isPremium, look),
  });
}

export async function updateTheme(user: User, id: string, input: unknown) {
  const theme = await requireOwnTheme(user, id);
  if (theme.archivedAt) throw badRequest("This theme is deleted. Restore it before changing it.");
  const look = changedLook(lookOf(theme), parseWith(themeChanges, input));
  return (await updateOwnTheme(db(), user.id, theme.id, { ...look, isPremium: premiumOwnTheme(theme.isPremium, look) }))!;
}

/** Deleting a theme archives it; events that chose it fall back to the default until it is restored. */
export async function archiveTheme(user: User, id: string) {
  const theme = await requireOwnTheme(user, id);
  return (await setOwnThemeArchived(db(), user.id, theme.id, true)) ?? theme;
}

export async function restoreTheme(user: User, id: string) {
  const theme = await requireOwnTheme(user, id);
  return (await setOwnThemeArchived(db(), user.id, theme.id, false)) ?? theme;
}

/** The built-in theme an event has until its organiser chooses one. */
export async function defaultTheme() {
  const found = await findThemeBySlug(db(), DEFAULT_THEME_SLUG);
  if (found) return found;
  // A process that did not start the web server (a worker, a script) may be first to ask.
  await ensureBuiltInThemes();
  return (await findThemeBySlug(db(), DEFAULT_THEME_SLUG))!;
}

/** The theme an event's video is made with: the organiser's choice, unless it was deleted since. */
export async function themeFor(eventId: string) {
  const { themeId } = await findArrangement(db(), eventId);
  const chosen = themeId ? await findThemeById(db(), themeId) : null;
  return chosen && !chosen.archivedAt ? chosen : defaultTheme();
}

/** The organiser picks a theme for the event: one they can see and that is not deleted. */
export async function chooseTheme(user: User, eventId: string, themeId: string) {
  const theme = await findVisibleTheme(user, themeId);
  if (theme.archivedAt) throw badRequest("This theme is deleted. Restore it before choosing it.");
  await updateArrangement(db(), eventId, { themeId: theme.id });
  return theme;
}
