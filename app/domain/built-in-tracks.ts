// The music that ships with Chorus (spec §3 Track): original pieces made for Chorus by
// scripts/make-music.ts, in public/music/, free to use in Chorus videos (public/music/LICENSE.txt).

export type TrackMood = "gentle" | "upbeat" | "tender" | "nostalgic" | "danceable";

export interface BuiltInTrack {
  /** Names the track in code and in the database (tracks.slug). */
  slug: string;
  title: string;
  artist: string;
  licence: string;
  mood: TrackMood;
  /** Path under public/. */
  file: string;
  /** One of the showier pieces: rendering with it needs the premium finish (docs/decisions/018). */
  premium: boolean;
}

export const BUILT_IN_ARTIST = "Chorus Studio";
export const BUILT_IN_LICENCE = "Original music made for Chorus. Free to use in Chorus videos.";

const track = (slug: string, title: string, mood: TrackMood, premium = false): BuiltInTrack => ({
  slug,
  title,
  artist: BUILT_IN_ARTIST,
  licence: BUILT_IN_LICENCE,
  mood,
  file: `music/${slug}.m4a`,
  premium,
});

/** In the order the music panel offers them. */
export const BUILT_IN_TRACKS: readonly BuiltInTrack[] = Object.freeze([
  track("warm-sunday", "Warm Sunday", "gentle"),
  track("confetti-pop", "Confetti Pop", "upbeat", true),
  track("slow-light", "Slow Light", "tender"),
  track("golden-years", "Golden Years", "nostalgic"),
  track("party-lights", "Party Lights", "danceable", true),
]);

export const MOOD_LABELS: Record<TrackMood, string> = {
  gentle: "Gentle",
  upbeat: "Upbeat",
  tender: "Tender",
  nostalgic: "Nostalgic",
  danceable: "Danceable",
};

export function findBuiltInTrack(slug: string | null | undefined) {
  return BUILT_IN_TRACKS.find((t) => t.slug === slug) ?? null;
}
