// A printed postcard's fixed facts (docs/decisions/030-postcards.md): its templates, where it can be
// posted, and the size of the card.

export interface PostcardTemplate {
  id: string;
  name: string;
  description: string;
  /** "poster": the front is the Chorus video's poster frame; otherwise a built-in design in two colours. */
  kind: "built-in" | "poster";
  background: string;
  ink: string;
  accent: string;
}

export const POSTCARD_TEMPLATES: readonly PostcardTemplate[] = [
  {
    id: "confetti",
    name: "Confetti",
    description: "Bright dots on warm yellow, for a birthday or any celebration.",
    kind: "built-in",
    background: "#ffd166",
    ink: "#1d3557",
    accent: "#ef476f",
  },
  {
    id: "evening",
    name: "Evening",
    description: "A deep blue card with a gold line, for a farewell or an anniversary.",
    kind: "built-in",
    background: "#1d3557",
    ink: "#ffffff",
    accent: "#e9c46a",
  },
  {
    id: "meadow",
    name: "Meadow",
    description: "Soft green with rolling hills, for a thank-you or a get-well card.",
    kind: "built-in",
    background: "#e9f5db",
    ink: "#31572c",
    accent: "#90a955",
  },
  {
    id: "poster",
    name: "Video still",
    description: "The poster frame of the Chorus video, with the title across the bottom.",
    kind: "poster",
    background: "#111111",
    ink: "#ffffff",
    accent: "#ffffff",
  },
];

export const postcardTemplate = (id: string) => POSTCARD_TEMPLATES.find((t) => t.id === id) ?? null;

/**
 * Where a card can be posted: the United States, and the countries abroad whose addresses the app
 * checks by their own post's rules (app/domain/postal-address.ts), all of which the print service
 * mails to internationally.
 */
export const POSTCARD_COUNTRIES: ReadonlySet<string> = new Set(["US", "CA", "GB", "IE", "AU", "NZ", "DE", "FR", "ES", "IT", "NL"]);

/** The longest message a person may type; whether it fits the card is measured on the card itself. */
export const POSTCARD_MESSAGE_MAX = 1000;
