// What the cards say about a clip that may disappoint (docs/decisions/053): one plain sentence, to
// the contributor with a way to record it again, to the organiser with who could. Never a refusal.

export const CLIP_ADVICE = ["dark", "quiet", "short", "shaky"] as const;
export type ClipAdvice = (typeof CLIP_ADVICE)[number];

const WORDS: Record<ClipAdvice, string> = {
  dark: "quite dark",
  quiet: "very quiet",
  short: "very short",
  shaky: "quite shaky",
};

/** Only the advice we know, in one order, once each: a row may hold what an older version wrote. */
export const knownAdvice = (advice: readonly string[]): ClipAdvice[] => CLIP_ADVICE.filter((code) => advice.includes(code));

/** "quite dark", "quite dark and very quiet", "quite dark, very quiet and very short". */
function describe(advice: readonly ClipAdvice[]) {
  const words = advice.map((code) => WORDS[code]);
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** To the contributor, on their card: "It's quite dark — want to record it again?" */
export function adviceForContributor(advice: readonly string[]): string | null {
  const known = knownAdvice(advice);
  if (!known.length) return null;
  const again = known.length === 1 && known[0] === "short" ? "want to record a longer one?" : "want to record it again?";
  return `It's ${describe(known)} — ${again}`;
}

/** To the organiser, on the media card: "Quite dark — Ana could record it again." */
export function adviceForOrganiser(advice: readonly string[], contributorName: string): string | null {
  const known = knownAdvice(advice);
  if (!known.length) return null;
  const text = describe(known);
  const who = contributorName.trim() || "Whoever sent it";
  return `${text[0]!.toUpperCase()}${text.slice(1)} — ${who} could record it again.`;
}
