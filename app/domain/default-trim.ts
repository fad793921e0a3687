// What the organiser is told about a clip's default trim (docs/decisions/053), wherever its trim
// is shown (its card on the Chorus's page, the running order on the arrange page), and which way
// back is offered: the whole clip while the default is in use, the default once they changed it.

export interface ClipTrim {
  durationSeconds: number | null;
  trimStart: number;
  trimEnd: number | null;
  /** The trim processing found; null before the clip was analysed. */
  defaultTrim: { trimStart: number; trimEnd: number | null } | null;
  trimChosen: boolean;
}

export type DefaultTrimNote = {
  text: string;
  /** What the button beside it does: play the whole clip, or go back to the default trim. */
  offer: "whole" | "default";
};

const seconds = (value: number) => `${Math.round(value * 10) / 10} s`;
const same = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < 0.001);

/** The note for a clip whose default trim leaves something out; null for any other item. */
export function defaultTrimNote(item: ClipTrim): DefaultTrimNote | null {
  const found = item.defaultTrim;
  const duration = item.durationSeconds;
  if (!found || duration === null) return null;
  const atStart = found.trimStart;
  const atEnd = found.trimEnd === null ? 0 : Math.max(0, duration - found.trimEnd);
  if (atStart <= 0 && atEnd <= 0) return null;
  const where = [atStart > 0 ? `${seconds(atStart)} at the start` : null, atEnd > 0 ? `${seconds(atEnd)} at the end` : null]
    .filter(Boolean)
    .join(" and ");
  const inUse = same(item.trimStart, found.trimStart) && same(item.trimEnd, found.trimEnd);
  if (inUse) return { text: `Trimmed by itself: ${where} had nothing happening, so it is left out.`, offer: "whole" };
  if (!item.trimChosen) return null;
  return { text: `We suggested leaving out ${where}, where nothing happens.`, offer: "default" };
}
