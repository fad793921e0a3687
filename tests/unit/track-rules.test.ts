import { describe, expect, test } from "vitest";
import { BUILT_IN_TRACKS, MOOD_LABELS, findBuiltInTrack } from "~/domain/built-in-tracks";
import { formatTrackTime, musicSettingsSchema } from "~/domain/track-rules";

describe("the built-in music", () => {
  test("has at least five tracks by Chorus Studio, each with its own slug, file and a known mood", () => {
    expect(BUILT_IN_TRACKS.length).toBeGreaterThanOrEqual(5);
    expect(new Set(BUILT_IN_TRACKS.map((t) => t.slug)).size).toBe(BUILT_IN_TRACKS.length);
    for (const track of BUILT_IN_TRACKS) {
      expect(track.file).toBe(`music/${track.slug}.m4a`);
      expect(track.artist).toBe("Chorus Studio");
      expect(track.licence).toMatch(/free to use in Chorus videos/i);
      expect(MOOD_LABELS[track.mood]).toBeTruthy();
    }
  });

  test("is found by slug, and nothing else is", () => {
    expect(findBuiltInTrack("slow-light")?.title).toBe("Slow Light");
    expect(findBuiltInTrack("nope")).toBeNull();
    expect(findBuiltInTrack(null)).toBeNull();
  });
});

describe("music settings", () => {
  const schema = musicSettingsSchema(90);

  test("reads what a form sends: seconds, fade and a volume in percent", () => {
    expect(schema.parse({ startSeconds: "12.5", fadeOutSeconds: "3", volume: "80" })).toEqual({
      startSeconds: 12.5,
      fadeOutSeconds: 3,
      volume: 80,
    });
    expect(schema.parse({ startSeconds: "0", fadeOutSeconds: "0,5", volume: "0" })).toEqual({
      startSeconds: 0,
      fadeOutSeconds: 0.5,
      volume: 0,
    });
  });

  test("refuses a start before the track or at its end, a fade over 10 s and a volume outside 0–100", () => {
    const result = schema.safeParse({ startSeconds: "90", fadeOutSeconds: "11", volume: "101" });
    expect(result.success).toBe(false);
    const fields = Object.fromEntries(result.error!.issues.map((i) => [i.path.join("."), i.message]));
    expect(fields).toEqual({
      startSeconds: "The track is 1:30 long: start before its end.",
      fadeOutSeconds: "Fade out for at most 10 seconds.",
      volume: "The volume goes from 0 to 100 %.",
    });
    expect(schema.safeParse({ startSeconds: "-1", fadeOutSeconds: "-2", volume: "-5" }).error?.issues).toHaveLength(3);
  });

  test("asks for a number where the field is blank or not a number", () => {
    const result = schema.safeParse({ startSeconds: "", fadeOutSeconds: "soon", volume: "loud" });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      "Enter the second the music starts at.",
      "Enter how many seconds the music fades out.",
      "Enter the music's volume in percent.",
    ]);
  });
});

test("track times read as minutes and seconds", () => {
  expect(formatTrackTime(65.9)).toBe("1:05");
  expect(formatTrackTime(0)).toBe("0:00");
  expect(formatTrackTime(null)).toBe("0:00");
  expect(formatTrackTime(900)).toBe("15:00");
});
