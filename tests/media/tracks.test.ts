import { stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BUILT_IN_TRACKS } from "~/domain/built-in-tracks";
import { LOUDNESS_TARGET } from "~/media/loudness.server";
import { probeMedia } from "~/media/probe.server";
import { runFfmpeg } from "~/media/run.server";
import { NOT_MUSIC_MESSAGE, analyseTrack, normaliseTrack, validateTrackFile } from "~/media/track-audio.server";
import { makeClip, makeTempDir } from "./support/media-fixtures";

let files: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  files = await makeTempDir("tracks");
});
afterAll(() => files.remove());

const LIMITS = { maxBytes: 50 * 1024 * 1024, maxSeconds: 15 * 60 };

/** A quiet tone, as music far below the target level: mono, 44.1 kHz, MP3. */
async function makeQuietTone(file: string, seconds: number, gainDb = -24) {
  await runFfmpeg([
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=330:sample_rate=44100:duration=${seconds}`,
    "-af",
    `volume=${gainDb}dB`,
    "-c:a",
    "libmp3lame",
    "-b:a",
    "96k",
    file,
  ]);
  return file;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: Error & { code?: string }) => ({ name: error.name, code: error.code, message: error.message }),
  );

describe("processing a track", () => {
  test("a quiet tone becomes a 48 kHz stereo AAC rendition near -16 LUFS, with its duration and 200 peaks", async () => {
    const tone = await makeQuietTone(files.path("tone.mp3"), 6);
    const checked = await validateTrackFile(tone, LIMITS);
    expect(checked.durationSeconds).toBeCloseTo(6, 0);

    const rendition = files.path("rendition.m4a");
    const made = await normaliseTrack(tone, rendition, checked.audio.index, files.path(""));
    expect(made.durationSeconds).toBeGreaterThan(5.9);
    expect(made.durationSeconds).toBeLessThan(6.2);
    expect(Math.abs(made.loudnessLufs - LOUDNESS_TARGET.integrated)).toBeLessThan(1);
    expect(made.waveform).toHaveLength(200);
    expect(made.waveform.every((v) => v >= 0 && v <= 1)).toBe(true);
    // A steady tone: the same level all along, well above silence.
    expect(Math.min(...made.waveform.slice(5, 195))).toBeGreaterThan(0.1);

    const probe = await probeMedia(rendition);
    expect(probe.audio).toMatchObject({ codec: "aac", sampleRate: 48_000, channels: 2 });
    expect(probe.video).toBeNull();
    // Measured again from the file itself, not taken from the encoder's word.
    const heard = await analyseTrack(rendition, probe.audio!.index, files.path(""));
    expect(Math.abs(heard.loudnessLufs - LOUDNESS_TARGET.integrated)).toBeLessThan(1);
  });

  test("a text file named .mp3 is refused by its content, with a reason for the owner", async () => {
    const fake = files.path("song.mp3");
    await writeFile(fake, "These are the words of a song, not its sound.\n".repeat(200));
    expect(await rejection(validateTrackFile(fake, LIMITS))).toEqual({
      name: "UploadRejectedError",
      code: "UNSUPPORTED_TYPE",
      message: NOT_MUSIC_MESSAGE,
    });
  });

  test("a video, a track over the length limit and silence are refused too", async () => {
    const clip = await makeClip(files.path("clip.mp4"), { seconds: 1 });
    expect(await rejection(validateTrackFile(clip, LIMITS))).toMatchObject({
      code: "UNSUPPORTED_TYPE",
      message: expect.stringContaining("This is a video"),
    });

    const long = await makeQuietTone(files.path("long.mp3"), 4);
    expect(await rejection(validateTrackFile(long, { ...LIMITS, maxSeconds: 3 }))).toMatchObject({
      code: "TOO_LONG",
      message: expect.stringContaining("longer than 3 seconds"),
    });
    expect(await rejection(validateTrackFile(long, { ...LIMITS, maxBytes: 1000 }))).toMatchObject({ code: "TOO_LARGE" });

    // A container may claim less than it holds: decoding stops past the limit all the same.
    expect(await rejection(normaliseTrack(long, files.path("long.m4a"), 0, files.path(""), { maxSeconds: 2 }))).toMatchObject({
      code: "TOO_LONG",
    });

    const silence = files.path("silence.m4a");
    await runFfmpeg([
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "anullsrc=r=48000:cl=stereo",
      "-t",
      "4",
      "-c:a",
      "aac",
      silence,
    ]);
    const checked = await validateTrackFile(silence, LIMITS);
    expect(await rejection(normaliseTrack(silence, files.path("silent-out.m4a"), checked.audio.index, files.path("")))).toMatchObject({
      code: "EMPTY",
      message: "We could not hear any sound in this file.",
    });
  });

  test("a clip under 3 seconds gets a fixed gain towards the target instead of loudnorm", async () => {
    const short = await makeQuietTone(files.path("short.mp3"), 2, -30);
    const made = await normaliseTrack(short, files.path("short.m4a"), 0, files.path(""));
    const heard = await analyseTrack(files.path("short.m4a"), 0, files.path(""));
    expect(made.waveform).toHaveLength(200);
    // Louder than it came in (the measure of 2 s is rough: the gain is the point, not the exact level).
    const before = await analyseTrack(short, 0, files.path(""));
    expect(heard.loudnessLufs).toBeGreaterThan(before.loudnessLufs + 5);
  });
});

describe("the built-in music as shipped", () => {
  const publicDir = path.resolve(__dirname, "../../public");

  test("is 48 kHz stereo AAC at -16 LUFS, never peaking above -1 dBFS, 60–120 s each, under 10 MB in all", async () => {
    let total = 0;
    for (const track of BUILT_IN_TRACKS) {
      const file = path.join(publicDir, track.file);
      total += (await stat(file)).size;
      const probe = await probeMedia(file);
      expect(probe.audio, track.slug).toMatchObject({ codec: "aac", sampleRate: 48_000, channels: 2 });
      const heard = await analyseTrack(file, probe.audio!.index, files.path(""));
      expect(Math.abs(heard.loudnessLufs - LOUDNESS_TARGET.integrated), track.slug).toBeLessThan(1);
      expect(heard.truePeakDb, track.slug).toBeLessThan(-1);
      expect(heard.durationSeconds, track.slug).toBeGreaterThanOrEqual(60);
      expect(heard.durationSeconds, track.slug).toBeLessThanOrEqual(120);
      // Music all the way through: no stretch of the waveform falls silent.
      expect(Math.min(...heard.waveform), track.slug).toBeGreaterThan(0.05);
    }
    expect(total).toBeLessThan(10 * 1024 * 1024);
  });
});
