import { readFile } from "node:fs/promises";
import path from "node:path";
import decodeHeic from "heic-decode";
import sharp, { type Metadata } from "sharp";

/**
 * iPhones save photos as HEIC: HEIF holding HEVC pictures. sharp's prebuilt libvips reads HEIF's
 * AV1 flavour (AVIF) only, as HEVC decoding is left out of it for patent reasons
 * (`sharp.format.heif` lists `.avif` alone). heic-decode runs libheif compiled to WebAssembly
 * (libheif-js: no native build, nothing downloaded at install) and gives RGBA pixels, which
 * sharp takes from there. libheif applies the picture's own rotation and mirroring while it
 * decodes, so the pixels come out upright.
 */
export const needsHeicDecoder = (metadata: Pick<Metadata, "format" | "compression">) =>
  (metadata.format as string) === "heif" && metadata.compression === "hevc";

/** The first picture of a HEIC file as raw RGBA, in sharp's raw form. */
export async function decodeHeicPixels(file: string) {
  const { width, height, data } = await decodeHeic({ buffer: await readFile(file) });
  return { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), info: { width, height, channels: 4 as const } };
}

/**
 * Decodes a HEIC photo's pixels into `output` in libvips' own format (lossless, alpha kept, quick
 * to write and read), so every later step reads them with sharp without decoding HEVC again.
 */
export async function decodeHeicToFile(file: string, output: string): Promise<string> {
  const { data, info } = await decodeHeicPixels(file);
  await sharp(data, { raw: info }).toFile(output);
  return output;
}

/** A file sharp can read for the photo at `input`: `input` itself, or a HEIC photo decoded into `workDir`. */
export async function photoSharpCanRead(input: string, workDir: string): Promise<string> {
  const metadata = await sharp(input).metadata();
  return needsHeicDecoder(metadata) ? decodeHeicToFile(input, path.join(workDir, "decoded.v")) : input;
}
