import { findOccasion, guestbookOccasions, webAppOccasions, WEDDING_GUESTBOOK_TYPE } from "~/domain/occasions";

export interface OccasionChoice {
  /** The radio value: an occasion type, or "wedding-guestbook". */
  value: string;
  label: string;
  /** The label in guestbook mode (spec §2.4). */
  guestbookLabel: string;
  /** Offered in guestbook mode only. */
  guestbookOnly: boolean;
}

/**
 * One picker for both modes: the web app's occasions, relabelled in guestbook mode, where
 * the list is exactly `guestbookOccasions()` (the same entries plus Wedding Guestbook).
 */
export function occasionChoices(): OccasionChoice[] {
  const guestbookLabels = new Map(guestbookOccasions().map((option) => [option.type as string, option.label]));
  const choices = webAppOccasions().map((occasion) => ({
    value: occasion.type as string,
    label: occasion.label,
    guestbookLabel: guestbookLabels.get(occasion.type) ?? occasion.label,
    guestbookOnly: false,
  }));
  const wedding = choices.findIndex((choice) => choice.value === "wedding");
  const weddingGuestbook = guestbookLabels.get(WEDDING_GUESTBOOK_TYPE);
  if (wedding >= 0 && weddingGuestbook) {
    // §2.4 lets a label take the " Guestbook" suffix; wedding keeps its own label here so the
    // list does not show "Wedding Guestbook" twice next to the dedicated entry.
    if (choices[wedding]!.guestbookLabel === weddingGuestbook) choices[wedding]!.guestbookLabel = choices[wedding]!.label;
    choices.splice(wedding + 1, 0, {
      value: WEDDING_GUESTBOOK_TYPE,
      label: weddingGuestbook,
      guestbookLabel: weddingGuestbook,
      guestbookOnly: true,
    });
  }
  return choices;
}

/** What a picker choice means for the event: "wedding-guestbook" is a wedding in guestbook mode. */
export function occasionOfChoice(choice: string, guestbook: boolean) {
  if (choice === WEDDING_GUESTBOOK_TYPE) return { occasion: "wedding", guestbook: true };
  return { occasion: choice, guestbook };
}

/** A picker value, from the URL or the draft, that the picker offers; null otherwise. */
export function offeredChoice(value: string | null | undefined) {
  if (!value) return null;
  // The share host's start page names the custom occasion "custom" (spec §2.3).
  const choice = value === "custom" ? "other" : value;
  if (choice === WEDDING_GUESTBOOK_TYPE) return choice;
  return findOccasion(choice)?.webApp ? choice : null;
}
