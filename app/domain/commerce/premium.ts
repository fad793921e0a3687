import type { Resolution } from "~/render/plan-types";

// The premium finish (docs/decisions/018): a Chorus with it renders in 1080p HD and with the
// premium themes and tracks; one without renders in 720p with the others. Choosing and
// previewing a premium theme or track is open to everyone: only rendering with it needs premium.

/** The frame size the premium finish adds. */
export const PREMIUM_RESOLUTION: Resolution = "1080p";
/** What every Chorus renders at. */
export const STANDARD_RESOLUTION: Resolution = "720p";

/** What a render would be made with, as far as premium is concerned. */
export interface RenderChoices {
  resolution: Resolution;
  theme: { name: string; isPremium: boolean };
  track: { title: string; isPremium: boolean } | null;
}

/**
 * The frame size of a render nobody chose one for: the organiser's last choice with premium,
 * 720p without (a Chorus whose premium was refunded renders in 720p from then on).
 */
export const defaultResolution = (premium: boolean, saved: Resolution): Resolution => (premium ? saved : STANDARD_RESOLUTION);

/** One thing in a render that needs premium, and what the organiser may choose instead. */
export interface PremiumNeed {
  what: string;
  instead: string;
}

/** The premium theme and track among the choices, named as the organiser sees them. */
export function premiumLooksOf(choices: Pick<RenderChoices, "theme" | "track">): PremiumNeed[] {
  const needs: PremiumNeed[] = [];
  if (choices.theme.isPremium) needs.push({ what: `the theme “${choices.theme.name}”`, instead: "another theme" });
  if (choices.track?.isPremium) needs.push({ what: `the track “${choices.track.title}”`, instead: "another track" });
  return needs;
}

/** Everything in the choices that needs premium: 1080p HD first, then the theme and the track. */
export function premiumNeedsOf(choices: RenderChoices): PremiumNeed[] {
  const resolution = choices.resolution === PREMIUM_RESOLUTION ? [{ what: "1080p HD", instead: "720p" }] : [];
  return [...resolution, ...premiumLooksOf(choices)];
}

const listed = (parts: string[]) => (parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`);

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why a render is refused: what is premium, where to add it and what to choose instead (the API and the page alike). */
export function premiumRequiredMessage(needs: PremiumNeed[], cartPath: string) {
  const what = listed(needs.map((n) => n.what));
  const verb = needs.length === 1 ? "is" : "are";
  return `${capitalised(what)} ${verb} part of the Premium finish. Add it to this Chorus at ${cartPath}, or choose ${listed(needs.map((n) => n.instead))}.`;
}
