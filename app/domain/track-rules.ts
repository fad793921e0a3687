import { z } from "zod";

// Rules for the montage's music (spec §3 Track, the arrange page's music part).

/** How many tracks of their own an organiser keeps in their library at once. */
export const MAX_OWN_TRACKS = 20;

/** What the upload form offers to pick; the content decides in the end (ffprobe), never the name. */
export const ACCEPTED_TRACK_TYPES = "audio/*,.mp3,.m4a,.aac,.wav,.flac,.ogg,.oga,.opus";
export const ACCEPTED_TRACK_NAMES = "MP3, M4A, AAC, WAV, FLAC or OGG";

/** The longest fade at the end of the video, in seconds. */
export const MAX_FADE_OUT_SECONDS = 10;

/** "1:05" for 65 seconds; "0:00" for nothing known. */
export function formatTrackTime(seconds: number | null | undefined) {
  const whole = Math.max(0, Math.floor(seconds ?? 0));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** A number typed into a form: blank or not a number gets `message`. */
const typedNumber = (message: string) =>
  z
    .union([z.string(), z.number()])
    .transform((value) => (typeof value === "string" ? (value.trim() === "" ? Number.NaN : Number(value.trim().replace(",", "."))) : value))
    .pipe(z.number({ error: message }).refine(Number.isFinite, message));

/**
 * Where the music starts in the track, how long it fades out at the end of the video and how loud
 * it plays (0–100 %, stored as 0–1). The start must leave some of the track to play.
 */
export function musicSettingsSchema(durationSeconds: number) {
  return z.object({
    startSeconds: typedNumber("Enter the second the music starts at.").pipe(
      z
        .number()
        .min(0, "The music cannot start before the beginning of the track.")
        .refine((s) => s < durationSeconds, `The track is ${formatTrackTime(durationSeconds)} long: start before its end.`),
    ),
    fadeOutSeconds: typedNumber("Enter how many seconds the music fades out.").pipe(
      z.number().min(0, "The fade cannot be negative.").max(MAX_FADE_OUT_SECONDS, `Fade out for at most ${MAX_FADE_OUT_SECONDS} seconds.`),
    ),
    volume: typedNumber("Enter the music's volume in percent.").pipe(
      z.number().min(0, "The volume goes from 0 to 100 %.").max(100, "The volume goes from 0 to 100 %."),
    ),
  });
}
