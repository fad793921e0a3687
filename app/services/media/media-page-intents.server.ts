import { forbidden, parseWith } from "~/lib/http.server";
import { formDone as done, formText, type EventIntent, type IntentContext } from "~/services/events/event-page-form.server";
import { mediaOfEvent } from "~/services/media/media-access.server";
import { archiveMedia, changeMedia, mediaChangesSchema, restoreMedia } from "~/services/media/media-actions.server";
import { addStockPhoto, stockPickInput } from "~/services/media/stock-photo-pick.server";

// The organiser's contributions grid on /e/{uuid}: plain forms (intent=media-…) that work
// without JavaScript, and the drag-and-drop fetcher, calling the same services as the API.
// The page action has already checked that the viewer is the organiser.

const text = formText;

/** A number typed in a form; empty is "not given", anything unreadable is left for the schema to refuse. */
const numberIn = (form: FormData, name: string) => {
  const raw = text(form, name).trim();
  return raw === "" ? undefined : Number(raw);
};

const itemOf = ({ event, viewer, form }: IntentContext) => mediaOfEvent(event, viewer.user, text(form, "mediaId"));

export const mediaIntents: Record<string, EventIntent> = {
  async "media-move"(context) {
    const item = await itemOf(context);
    await changeMedia(item, parseWith(mediaChangesSchema, { position: numberIn(context.form, "position") }));
    return done("media-move", "The new order is saved.");
  },
  async "media-visibility"(context) {
    const hidden = text(context.form, "hidden") === "true";
    await changeMedia(await itemOf(context), { hidden });
    return done("media-visibility", hidden ? "Hidden: it stays here but is left out of the video." : "Shown: it's back in the video.");
  },
  async "media-archive"(context) {
    await archiveMedia(await itemOf(context));
    return done("media-archive", "Archived. You can restore it from the archived list.");
  },
  async "media-restore"(context) {
    await restoreMedia(await itemOf(context));
    return done("media-restore", "Restored, at the end of the video.");
  },
  async "media-edit"(context) {
    const { form } = context;
    const payload: Record<string, unknown> = { caption: text(form, "caption"), contributorName: text(form, "contributorName") };
    // Trim fields are on the form of a ready clip only; an empty end means "to the end".
    if (form.has("trimStart")) payload.trimStart = numberIn(form, "trimStart") ?? 0;
    if (form.has("trimEnd")) payload.trimEnd = numberIn(form, "trimEnd") ?? null;
    const changes = parseWith(mediaChangesSchema, payload);
    await changeMedia(await itemOf(context), changes);
    return done("media-edit", "Your changes are saved.");
  },
  // Back to the whole clip, or to the trim processing found for it (docs/decisions/053).
  async "media-trim"(context) {
    const whole = text(context.form, "trim") !== "default";
    await changeMedia(
      await itemOf(context),
      parseWith(mediaChangesSchema, whole ? { trimStart: 0, trimEnd: null } : { useDefaultTrim: true }),
    );
    return done("media-trim", whole ? "The whole clip plays now." : "The suggested trim is back.");
  },
  // The stock photo picker (stock-photo-pick.server.ts): a photo named by its id joins the contributions.
  async "stock-add"({ event, viewer, form }) {
    if (!viewer.user) throw forbidden("Only the organiser can do that.");
    await addStockPhoto(event, viewer.user, parseWith(stockPickInput, { photoId: text(form, "photoId"), caption: text(form, "caption") }));
    return done("stock-add", "Added. It joins the contributions as soon as it's prepared.");
  },
};
