import { access, readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type NormaliseProgress, normaliseVideo, renditionMaxKbits } from "~/media/normalise-video.server";
import { type MediaProbe, probeMedia } from "~/media/probe.server";
import { MediaToolError, runFfmpeg, runFfprobe } from "~/media/run.server";
import {
  dominant,
  grabFrame,
  makeAnimatedGif,
  makeClip,
  makeMultichannelClip,
  makeTempDir,
  makeTwoColourClip,
  markRotated,
  pixelAt,
} from "./support/media-fixtures";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  dir = await makeTempDir("normalise");
});
afterAll(() => dir.remove());

const small = { width: 640, height: 360 };
const oneFrame = 1 / 30;

async function integratedLoudness(file: string) {
  const { stderrTail } = await runFfmpeg(["-hide_banner", "-nostats", "-i", file, "-map", "0:a", "-af", "ebur128", "-f", "null", "-"]);
  return Number(/Integrated loudness:\s+I:\s+(-?[\d.]+) LUFS/.exec(stderrTail.join("\n"))?.[1]);
}

function expectRendition(rendition: MediaProbe, source: MediaProbe, frame: { width: number; height: number }) {
  expect(rendition.video).toMatchObject({ codec: "h264", ...frame, rotation: 0, pixelFormat: "yuv420p", sampleAspectRatio: 1 });
  expect(rendition.video?.frameRate).toBe(30);
  expect(rendition.audio).toEqual(expect.objectContaining({ codec: "aac", sampleRate: 48_000, channels: 2 }));
  const sourceDuration = source.video?.duration ?? source.duration ?? 0;
  expect(Math.abs((rendition.video?.duration ?? 0) - sourceDuration)).toBeLessThanOrEqual(oneFrame + 1e-6);
  expect(Math.abs((rendition.duration ?? 0) - sourceDuration)).toBeLessThanOrEqual(oneFrame + 1e-6);
}

describe("normalising a clip for rendering", () => {
  test("a landscape clip with mono 44.1 kHz sound becomes the fixed rendition, reporting progress", async () => {
    const input = await makeClip(dir.path("landscape.mp4"), { width: 320, height: 240, seconds: 2, fps: 25 });
    const reports: NormaliseProgress[] = [];
    const rendition = await normaliseVideo(input, dir.path("landscape-out.mp4"), { ...small, onProgress: (p) => reports.push(p) });
    expectRendition(rendition, await probeMedia(input), small);
    expect(reports.at(-1)).toMatchObject({ done: true, fraction: 1 });
    expect(reports.every((r) => r.fraction >= 0 && r.fraction <= 1)).toBe(true);

    const keyFrames = await runFfprobe([
      "-v",
      "error",
      "-select_streams",
      "v",
      "-skip_frame",
      "nokey",
      "-show_entries",
      "frame=pts_time",
      "-of",
      "csv=p=0",
      dir.path("landscape-out.mp4"),
    ]);
    expect(
      keyFrames.stdout
        .split("\n")
        .filter(Boolean)
        .map((t) => Math.round(Number(t.replace(",", "")))),
    ).toEqual([0, 1]);
  });

  test("a rendition is written to decode cheaply: CAVLC, no loop filter", async () => {
    const input = await makeClip(dir.path("cheap.mp4"), { width: 320, height: 240, seconds: 1 });
    const output = dir.path("cheap-out.mp4");
    await normaliseVideo(input, output, small);
    // x264 writes the options it encoded with into the stream, as text.
    const options = /options: ([^\0]+?)\0/.exec((await readFile(output)).toString("latin1"))?.[1] ?? "";
    expect(options.split(" ")).toEqual(expect.arrayContaining(["cabac=0", "deblock=0:0:0"]));
  });

  test("sound is levelled to -16 LUFS, in clips shorter than loudnorm's 3 s window too", async () => {
    // ffmpeg's sine is about -21.8 LUFS.
    for (const seconds of [1.5, 4]) {
      const input = await makeClip(dir.path(`tone-${seconds}.mp4`), { width: 160, height: 90, seconds });
      const output = dir.path(`tone-${seconds}-out.mp4`);
      await normaliseVideo(input, output, small);
      expect(Math.abs((await integratedLoudness(output)) - -16), `${seconds} s`).toBeLessThan(1);
    }
  });

  test("a 5.1 clip is mixed down to stereo at the loudness of a stereo clip, short or long", async () => {
    for (const seconds of [1.5, 4]) {
      const levels: Record<string, number> = {};
      for (const layout of ["5.1", "stereo"] as const) {
        const input = await makeMultichannelClip(dir.path(`${layout}-${seconds}.mp4`), { layout, seconds });
        expect((await probeMedia(input)).audio?.channels).toBe(layout === "5.1" ? 6 : 2);
        const output = dir.path(`${layout}-${seconds}-out.mp4`);
        expect((await normaliseVideo(input, output, small)).audio?.channels).toBe(2);
        levels[layout] = await integratedLoudness(output);
      }
      expect(Math.abs(levels["5.1"]! - levels.stereo!), `${seconds} s: ${JSON.stringify(levels)}`).toBeLessThanOrEqual(1);
      expect(Math.abs(levels["5.1"]! - -16), `${seconds} s`).toBeLessThan(1);
    }
  });

  test("an animated GIF becomes a clip as long as one pass of its animation, with silent sound", async () => {
    const gif = await makeAnimatedGif(dir.path("dance.gif"), { seconds: 2 });
    const rendition = await normaliseVideo(gif, dir.path("dance-out.mp4"), small);
    expect(rendition.kind).toBe("video");
    expect(rendition.video).toMatchObject({ codec: "h264", ...small, frameRate: 30 });
    expect(rendition.audio).toMatchObject({ codec: "aac", channels: 2 });
    expect(Math.abs((rendition.video?.duration ?? 0) - 2)).toBeLessThanOrEqual(0.1);
  });

  test("a grainy clip's rendition keeps to the bitrate cap for its frame size", async () => {
    // Fresh noise in every frame: at CRF 20 alone it would take several times the cap.
    const input = dir.path("grainy.mp4");
    await runFfmpeg([
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=640x360:rate=30:duration=3",
      "-vf",
      "noise=alls=40:allf=t",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-qp",
      "10",
      input,
    ]);
    const output = dir.path("grainy-out.mp4");
    await normaliseVideo(input, output, small);
    const cap = renditionMaxKbits(small) * 1000;
    const { stdout } = await runFfprobe([
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=bit_rate",
      "-of",
      "csv=p=0",
      output,
    ]);
    const bitrate = Number(stdout.trim());
    expect(bitrate).toBeGreaterThan(cap * 0.5);
    // The rate control's buffer (two seconds at the cap) may be spent once on top of the cap.
    const seconds = 3;
    expect(bitrate).toBeLessThanOrEqual((cap * seconds + 2 * cap) / seconds);
  });

  test("a clip without sound gets a silent stereo track as long as the picture", async () => {
    const input = await makeClip(dir.path("silent.mp4"), { seconds: 1.5, audio: false });
    const rendition = await normaliseVideo(input, dir.path("silent-out.mp4"), small);
    expectRendition(rendition, await probeMedia(input), small);
  });

  test("a portrait phone clip comes out upright, in the middle, on a blurred fill", async () => {
    // Left half red, right half blue, then marked as turned: once upright, one colour is on top.
    const sideways = await markRotated(await makeTwoColourClip(dir.path("two-colour.mp4")), dir.path("portrait.mp4"));
    const source = await probeMedia(sideways);
    const rendition = await normaliseVideo(sideways, dir.path("portrait-out.mp4"), small);
    expectRendition(rendition, source, small);

    const still = await grabFrame(dir.path("portrait-out.mp4"), 0.5, dir.path("portrait-out.png"));
    // Turned clockwise, the left (red) half goes to the top; anticlockwise, the right (blue) half.
    const [top, bottom] = source.video?.rotation === 90 ? ["red", "blue"] : ["blue", "red"];
    expect(dominant(await pixelAt(still, 320, 60))).toBe(top);
    expect(dominant(await pixelAt(still, 320, 300))).toBe(bottom);
    // The picture is 360 tall, so about 202 wide: the sides are the blurred copy, not black bars.
    for (const x of [2, 100, 637]) expect(dominant(await pixelAt(still, x, 180))).not.toBe("black");
  });

  test("the default rendition is 1920×1080 at 30 fps", async () => {
    const input = await makeClip(dir.path("short.mp4"), { width: 640, height: 480, seconds: 1 });
    const rendition = await normaliseVideo(input, dir.path("short-out.mp4"));
    expectRendition(rendition, await probeMedia(input), { width: 1920, height: 1080 });
  });

  test("cancelling stops ffmpeg and leaves no half-written file", async () => {
    const input = await makeClip(dir.path("to-cancel.mp4"), { seconds: 1 });
    const controller = new AbortController();
    const output = dir.path("cancelled.mp4");
    const run = normaliseVideo(input, output, { ...small, signal: controller.signal, onProgress: () => controller.abort() });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaToolError);
    expect((error as MediaToolError).reason).toBe("aborted");
    await expect(access(output)).rejects.toThrow();
  });
});
