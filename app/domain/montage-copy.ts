import { findOccasion } from "./occasions";
import { formatRecipientNames, occasionTitle, type RecipientName } from "./recipient-names";

// The words on the video's title cards (spec §3: recipient names, the occasion's phrase).

// What the intro says under the heading; most occasions are a celebration, a few are not.
const INTRO_LINES: Partial<Record<string, string>> = {
  memorial: "In loving memory",
  farewell: "We'll miss you",
  getwell: "Get well soon",
  thankyou: "Thank you, from all of us",
  retirement: "Here's to what comes next",
  graduation: "You did it!",
  wedding: "To many happy years",
  anniversary: "Here's to you both",
};
const DEFAULT_INTRO_LINE = "From all of us, with love";
const OUTRO_NAMES_SHOWN = 6;

export interface TitleCard {
  heading: string;
  subheading: string;
}

/** The intro card: the event's own title when it has one, else "Ana's birthday". */
export function introCard(options: {
  title: string;
  occasion: string;
  occasionOther?: string | null;
  recipients: readonly RecipientName[];
}): TitleCard {
  const occasion = findOccasion(options.occasion);
  const phrase =
    options.occasion === "other" && options.occasionOther?.trim() ? options.occasionOther.trim() : (occasion?.phrase ?? "special day");
  return {
    heading: options.title.trim() || occasionTitle(options.recipients, phrase),
    subheading: INTRO_LINES[options.occasion] ?? DEFAULT_INTRO_LINE,
  };
}

/** The outro card: who made it, "Ana, Bo and 12 others". */
export function outroCard(contributors: readonly string[]): TitleCard {
  const names = [...new Set(contributors.map((n) => n.trim()).filter(Boolean))];
  if (names.length === 0) return { heading: "With love", subheading: "from everyone who took part" };
  if (names.length <= OUTRO_NAMES_SHOWN) {
    return { heading: "With love from", subheading: formatRecipientNames(names.map((firstName) => ({ firstName }))) };
  }
  const others = names.length - OUTRO_NAMES_SHOWN;
  return {
    heading: "With love from",
    subheading: `${names.slice(0, OUTRO_NAMES_SHOWN).join(", ")} and ${others} ${others === 1 ? "other" : "others"}`,
  };
}
