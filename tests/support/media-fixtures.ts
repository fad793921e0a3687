// Media for upload tests, made on the spot (nothing is downloaded). The small clips, the
// pixel-flood PNG and the temp folder come from the media tests' own helpers.
import crypto from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import sharp from "sharp";
import { runFfmpeg } from "~/media/run.server";

export { makeClip, makePixelFloodPng, makeTempDir } from "../media/support/media-fixtures";

/**
 * A phone-sized clip that does not compress to nothing: a moving test pattern with grain, at a
 * fixed bitrate (6 Mbit/s unless told: ~7.5 MB for 10 s; phones record 1080p at about 15), with a
 * 44.1 kHz mono sine like a phone's mic.
 */
export async function makeGrainyClip(file: string, { width = 1280, height = 720, seconds = 10, fps = 30, bitrate = "6M" } = {}) {
  await runFfmpeg([
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds},noise=alls=12:allf=t`,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-b:v",
    bitrate,
    "-maxrate",
    bitrate,
    "-bufsize",
    bitrate,
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    file,
  ]);
  return file;
}

/** A JPEG photo, as a phone would send it. */
export async function makePhoto(file: string, { width = 800, height = 600 } = {}) {
  await sharp({ create: { width, height, channels: 3, background: "#3a7bd5" } })
    .composite([{ input: { create: { width: width / 2, height: height / 2, channels: 3, background: "#f5d020" } }, gravity: "northwest" }])
    .jpeg({ quality: 85 })
    .toFile(file);
  return file;
}

/** The first `share` (0–1) of a file's bytes: an upload cut off part-way. */
export async function truncateFile(input: string, output: string, share: number) {
  const whole = await readFile(input);
  await writeFile(output, whole.subarray(0, Math.floor(whole.length * share)));
  return output;
}

export function sha256(bytes: Uint8Array) {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

export async function sha256File(file: string) {
  const hash = crypto.createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * `length` bytes that start like an MP4 (an `ftyp` box, brand isom) and go on at random: they pass
 * the upload's first-bytes check and fail in processing. For tests of the upload path itself.
 */
export function mp4LikeBytes(length: number) {
  const start = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isommp42")]);
  return Buffer.concat([start, crypto.randomBytes(Math.max(0, length - start.length))]).subarray(0, length);
}
