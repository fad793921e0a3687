import { describe, expect, test } from "vitest";
import { NOT_A_PHOTO_OR_VIDEO, SOUND_FILE, fileSignature, refusalForHead } from "~/media/file-signature";

const bytes = (...parts: Array<string | number[]>) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part)));

/** An ISO base media file's first box: `ftyp`, its major brand, a minor version and compatible brands. */
const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + 4 * compatible.length;
  return bytes([0, 0, 0, size], "ftyp", major, [0, 0, 0, 0], ...compatible, [0, 0, 0, 8], "free", "mdat");
};
const padded = (head: Uint8Array) => Uint8Array.from([...head, ...new Uint8Array(64)]);

describe("what a file is, from its first bytes", () => {
  test.each([
    ["a JPEG", bytes([0xff, 0xd8, 0xff, 0xe1], "..Exif"), { kind: "photo", mime: "image/jpeg" }],
    ["a PNG", bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], "IHDR"), { kind: "photo", mime: "image/png" }],
    ["a GIF", bytes("GIF89a", [1, 0, 1, 0]), { kind: "photo", mime: "image/gif" }],
    ["a WebP", bytes("RIFF", [0, 1, 0, 0], "WEBPVP8 "), { kind: "photo", mime: "image/webp" }],
    ["a TIFF", bytes("II", [0x2a, 0, 8, 0, 0, 0]), { kind: "photo", mime: "image/tiff" }],
    ["an iPhone HEIC photo", ftyp("heic", "mif1", "heic"), { kind: "photo", mime: "image/heic" }],
    ["a HEIF photo with the generic brand", ftyp("mif1", "heic"), { kind: "photo", mime: "image/heic" }],
    ["an AVIF photo", ftyp("avif", "mif1", "miaf"), { kind: "photo", mime: "image/avif" }],
    ["an AVIF photo with the generic brand", ftyp("mif1", "avif", "miaf"), { kind: "photo", mime: "image/avif" }],
    ["an iPhone MOV", ftyp("qt  ", "qt  "), { kind: "video", mime: "video/quicktime" }],
    ["an Android MP4", ftyp("isom", "isom", "mp42"), { kind: "video", mime: "video/mp4" }],
    ["a 3GP clip", ftyp("3gp4", "isom", "3gp4"), { kind: "video", mime: "video/3gpp" }],
    ["an old QuickTime file without ftyp", bytes([0, 0, 0, 8], "wide", [0, 0, 0, 16], "mdat"), { kind: "video", mime: "video/quicktime" }],
    [
      "a WebM",
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], "webm"),
      { kind: "video", mime: "video/webm" },
    ],
    ["a Matroska", bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x82, 0x88], "matroska"), { kind: "video", mime: "video/x-matroska" }],
    ["an AVI", bytes("RIFF", [0, 1, 0, 0], "AVI LIST"), { kind: "video", mime: "video/x-msvideo" }],
    ["an M4A voice memo", ftyp("M4A ", "M4A ", "mp42", "isom"), { kind: "audio", mime: "audio/mp4" }],
    ["an MP3 with its ID3 tag", bytes("ID3", [4, 0, 0, 0, 0, 0, 0]), { kind: "audio", mime: "audio/mpeg" }],
    ["an MP3 starting with a frame", bytes([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]), { kind: "audio", mime: "audio/mpeg" }],
    ["an AAC stream (ADTS)", bytes([0xff, 0xf1, 0x50, 0x80, 0, 0x1f, 0xfc]), { kind: "audio", mime: "audio/aac" }],
    ["a WAV", bytes("RIFF", [0, 1, 0, 0], "WAVEfmt "), { kind: "audio", mime: "audio/wav" }],
    ["an Android AMR recording", bytes("#!AMR\n", [0x3c]), { kind: "audio", mime: "audio/amr" }],
  ])("%s", (_name, head, expected) => {
    expect(fileSignature(padded(head))).toEqual(expected);
  });

  test("text, a PDF, a ZIP and an unknown RIFF form are nothing we know", () => {
    for (const head of [
      bytes("These are my notes, not a video.\n"),
      bytes("%PDF-1.7\n"),
      bytes("PK", [3, 4, 20, 0]),
      bytes("RIFF", [0, 1, 0, 0], "CDXA"),
    ]) {
      expect(fileSignature(padded(head))).toBeNull();
    }
  });
});

describe("refusing a file from its first bytes", () => {
  test("a text file is refused as not a photo or a video, a sound file as sound", () => {
    expect(refusalForHead(bytes("These are my notes, not a video.\n"))).toEqual({
      code: "UNSUPPORTED_TYPE",
      message: NOT_A_PHOTO_OR_VIDEO,
    });
    expect(refusalForHead(padded(ftyp("M4A ", "isom")))).toEqual({ code: "UNSUPPORTED_TYPE", message: SOUND_FILE });
    expect(refusalForHead(padded(bytes("ID3", [4, 0, 0, 0, 0, 0, 0])))).toEqual({ code: "UNSUPPORTED_TYPE", message: SOUND_FILE });
  });

  test("photos and videos go on", () => {
    expect(refusalForHead(padded(ftyp("heic", "mif1", "heic")))).toBeNull();
    expect(refusalForHead(padded(ftyp("isom", "isom", "mp42")))).toBeNull();
    expect(refusalForHead(padded(bytes([0xff, 0xd8, 0xff, 0xe0])))).toBeNull();
  });

  test("too few bytes to judge go on, unless they are the whole file", () => {
    expect(refusalForHead(bytes("hello"))).toBeNull();
    expect(refusalForHead(bytes("hello"), { wholeFile: true })).toEqual({ code: "UNSUPPORTED_TYPE", message: NOT_A_PHOTO_OR_VIDEO });
  });
});

describe("an empty file", () => {
  test("is refused as empty, not as an unknown kind of file", () => {
    expect(refusalForHead(new Uint8Array(0), { wholeFile: true })).toEqual({ code: "EMPTY", message: "This file is empty." });
  });
});
