// Small media made on the spot with ffmpeg's test sources and sharp: nothing is downloaded.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { runFfmpeg } from "~/media/run.server";

/** A temp folder per test file: made in `beforeAll`, removed in `afterAll`. */
export async function makeTempDir(label: string) {
  const root = await mkdtemp(path.join(tmpdir(), `chorus-media-${label}-`));
  return { path: (name: string) => path.join(root, name), remove: () => rm(root, { recursive: true, force: true }) };
}

/** ffmpeg that says nothing but errors and overwrites its output. */
export const ffmpeg = (args: string[]) => runFfmpeg(["-hide_banner", "-v", "error", "-y", ...args]);

type ClipOptions = { width?: number; height?: number; seconds?: number; fps?: number; audio?: boolean; faststart?: boolean };

/** An H.264 test pattern, with a mono 44.1 kHz sine unless `audio: false` (phones' odd rates included). */
export async function makeClip(
  file: string,
  { width = 320, height = 240, seconds = 2, fps = 30, audio = true, faststart = false }: ClipOptions = {},
) {
  await ffmpeg([
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
    ...(audio ? ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=44100:duration=${seconds}`] : []),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    ...(audio ? ["-c:a", "aac", "-shortest"] : []),
    ...(faststart ? ["-movflags", "+faststart"] : []),
    file,
  ]);
  return file;
}

/** Left half red, right half blue: which way is up can be read back after a rotation. */
export async function makeTwoColourClip(file: string, { width = 640, height = 360, seconds = 1 } = {}) {
  const half = `${width / 2}x${height}`;
  await ffmpeg([
    "-filter_complex",
    `color=c=red:s=${half}:r=30:d=${seconds}[l];color=c=blue:s=${half}:r=30:d=${seconds}[r];[l][r]hstack[v]`,
    "-map",
    "[v]",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    file,
  ]);
  return file;
}

let displayRotationOption: Promise<boolean> | undefined;

/**
 * Copies a clip, marked as shot sideways like a phone in portrait. Older ffmpeg (the npm 4.1)
 * turns a `rotate` tag into the display matrix; newer ffmpeg dropped that in favour of the
 * `-display_rotation` input option (counter-clockwise degrees), used whenever it exists.
 */
export async function markRotated(input: string, output: string, clockwise: 90 | 180 | 270 = 90) {
  displayRotationOption ??= runFfmpeg(["-hide_banner", "-h", "full"]).then(({ stdout }) => stdout.includes("display_rotation"));
  const args = (await displayRotationOption)
    ? ["-display_rotation", String(-clockwise), "-i", input, "-c", "copy", output]
    : ["-i", input, "-c", "copy", "-metadata:s:v:0", `rotate=${clockwise}`, output];
  await ffmpeg(args);
  return output;
}

/**
 * A short test pattern with a tone of its own in every channel: 5.1 as some phones and cameras
 * record it (front left, right, centre, LFE, surround left, right), or plain stereo.
 */
export async function makeMultichannelClip(file: string, { layout, seconds = 4 }: { layout: "5.1" | "stereo"; seconds?: number }) {
  const frequencies = layout === "5.1" ? [440, 550, 660, 60, 770, 880] : [440, 550];
  const tones = frequencies.map((f, i) => `sine=frequency=${f}:sample_rate=48000:duration=${seconds}[a${i}]`).join(";");
  const inputs = frequencies.map((_, i) => `[a${i}]`).join("");
  await ffmpeg([
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=160x90:rate=30:duration=${seconds}`,
    "-filter_complex",
    `${tones};${inputs}join=inputs=${frequencies.length}:channel_layout=${layout}[a]`,
    "-map",
    "0:v",
    "-map",
    "[a]",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    file,
  ]);
  return file;
}

/** A HEIC photo as an iPhone sends it (HEVC in HEIF), 64 × 48 in quarters like makeQuartersImage: see fixtures/README.md. */
// From the module's own address, not `__dirname`: the benches load it as an ES module, where there is none.
export const HEIC_QUARTERS = fileURLToPath(new URL("../fixtures/quarters.heic", import.meta.url));

/** An animated GIF of ffmpeg's test pattern: `seconds` long at 10 frames a second. */
export async function makeAnimatedGif(file: string, { width = 160, height = 120, seconds = 2 } = {}) {
  await ffmpeg(["-f", "lavfi", "-i", `testsrc=size=${width}x${height}:rate=10:duration=${seconds}`, "-loop", "0", file]);
  return file;
}

/** A sine tone in AAC: mono at 440 Hz unless told otherwise. */
export async function makeTone(file: string, seconds = 2, { frequency = 440, channels = 1 } = {}) {
  await ffmpeg(["-f", "lavfi", "-i", `sine=frequency=${frequency}:duration=${seconds}`, "-ac", String(channels), "-c:a", "aac", file]);
  return file;
}

/** A PNG whose header claims `width`×`height` pixels, with a few bytes of real image data. */
export async function makePixelFloodPng(file: string, width = 30_000, height = 30_000) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await writeFile(
    file,
    Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.alloc(width + 1))), chunk("IEND", Buffer.alloc(0))]),
  );
  return file;
}

type Rgb = [number, number, number];

/** Four coloured quarters: red top-left, green top-right, blue bottom-left, white bottom-right. */
export async function makeQuartersImage(file: string, width: number, height: number, exifOrientation?: number) {
  const [w, h] = [Math.floor(width / 2), Math.floor(height / 2)];
  const block = (colour: Rgb, left: number, top: number) => ({
    input: { create: { width: w, height: h, channels: 3 as const, background: { r: colour[0], g: colour[1], b: colour[2] } } },
    left,
    top,
  });
  let image = sharp({ create: { width, height, channels: 3, background: "#ffffff" } }).composite([
    block([255, 0, 0], 0, 0),
    block([0, 255, 0], w, 0),
    block([0, 0, 255], 0, h),
  ]);
  if (exifOrientation) image = image.withMetadata({ orientation: exifOrientation });
  await image.toFile(file);
  return file;
}

/** The RGB value at (x, y) of an image file. */
export async function pixelAt(file: string, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0];
}

/** One decoded frame of a video as PNG. */
export async function grabFrame(video: string, seconds: number, output: string) {
  await ffmpeg(["-ss", String(seconds), "-i", video, "-frames:v", "1", "-f", "image2", "-update", "1", "-c:v", "png", output]);
  return output;
}

/** Which of red, green, blue or white a pixel is closest to (video encoding blurs exact values). */
export function dominant([r, g, b]: Rgb): "red" | "green" | "blue" | "white" | "black" | "mixed" {
  const high = (v: number) => v > 150;
  const low = (v: number) => v < 100;
  if (high(r) && high(g) && high(b)) return "white";
  if (low(r) && low(g) && low(b)) return "black";
  if (high(r) && low(g) && low(b)) return "red";
  if (low(r) && high(g) && low(b)) return "green";
  if (low(r) && low(g) && high(b)) return "blue";
  return "mixed";
}

/** Frame `n` (counted from 0) of a video, as a PNG at `output`. */
export async function frameAt(video: string, n: number, output: string) {
  await runFfmpeg([
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-i",
    video,
    "-vf",
    `select=eq(n\\,${n})`,
    "-frames:v",
    "1",
    "-update",
    "1",
    output,
  ]);
  return output;
}
