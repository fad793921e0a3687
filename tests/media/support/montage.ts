// The sources, items and plans of the montage tests (render-montage, render-order): a clip, a
// speech-like clip, three photos, a title card background and music, at a small frame size.
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { PieceStore, StoredPiece } from "~/render/piece-store";
import type { PieceContext } from "~/render/pieces";
import type { OutputProfile, PlanInput, PlanMedia } from "~/render/plan";
import { ffmpeg, makeClip, makeQuartersImage, makeTone, type makeTempDir } from "./media-fixtures";

export const profile: OutputProfile = { resolution: "720p", width: 320, height: 180, fps: 30, encoderVersion: 1 };

type TempDir = Awaited<ReturnType<typeof makeTempDir>>;

/** Writes the sources into `dir`: their files by the storage key a plan names them with. */
export async function makeMontageSources(dir: TempDir) {
  const files: Record<string, string> = {};
  files["clip.mp4"] = await makeClip(dir.path("clip.mp4"), { width: 320, height: 180, seconds: 2 });
  // Speech-like: a low voice whose loudness rises and falls four times a second.
  files["speech.mp4"] = dir.path("speech.mp4");
  await ffmpeg([
    ...["-f", "lavfi", "-i", "testsrc=size=320x180:rate=30:duration=3"],
    ...["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=3"],
    ...["-af", "volume=8dB,tremolo=f=4:d=0.7", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ...["-c:a", "aac", "-ac", "2", files["speech.mp4"]],
  ]);
  for (const name of ["a.jpg", "b.jpg", "c.jpg"]) files[name] = await makeQuartersImage(dir.path(name), 320, 180);
  files.background = dir.path("background.jpg");
  await sharp({ create: { width: 640, height: 360, channels: 3, background: "#305080" } })
    .jpeg()
    .toFile(files.background);
  // Music: a high tone shorter than the video, so it loops; the voice stays far below it.
  files["music.m4a"] = await makeTone(dir.path("music.m4a"), 4, { frequency: 3000, channels: 2 });
  return files;
}

let nextId = 0;
export const item = (kind: "photo" | "video", renditionKey: string, changes: Partial<PlanMedia> = {}): PlanMedia => ({
  id: `m${++nextId}`,
  kind,
  status: "ready",
  renditionKey,
  durationSeconds: kind === "video" ? 2 : null,
  trimStart: 0,
  trimEnd: null,
  caption: "Happy birthday! We hope this year brings you everything you wished for and a little more.",
  contributorName: "Bo",
  hidden: false,
  archived: false,
  position: nextId,
  hasAudio: kind === "video",
  ...changes,
});

export const planInput = (media: PlanMedia[], changes: Partial<PlanInput> = {}): PlanInput => ({
  intro: { heading: "Ana turns 30", subheading: "from all of us" },
  outro: { heading: "With love", subheading: "your friends" },
  theme: {
    id: "theme",
    introUrl: "/themes/test/intro.jpg",
    outroUrl: "/themes/test/outro.jpg",
    fontUrl: "/fonts/themes/JosefinSans-Bold.ttf",
    fontColor: "#ffffff",
    fontSize: 46,
    fontLineSpacing: 1.3,
    textBoxColor: "#2d5a36e6",
    textBoxScale: 0.9,
    isCollage: true,
    scenes: [{ kind: "single" }, { kind: "collage", photos: 2 }],
  },
  media,
  track: { id: "track", renditionKey: "music.m4a", durationSeconds: 4, startSeconds: 0.5, fadeOutSeconds: 1, volume: 0.8 },
  resolution: "720p",
  timing: { titleSeconds: 1.5, photoSeconds: 2, collageSeconds: 2 },
  ...changes,
});

/** A piece's context that reads the sources from `files` and writes under `dir`. */
export function montageContext(
  dir: TempDir,
  files: Record<string, string>,
  name: string,
  changes: Partial<PieceContext> = {},
): PieceContext {
  return {
    profile,
    workDir: dir.path(name),
    sourcePath: async (key) => files[key] ?? Promise.reject(new Error(`no file for ${key}`)),
    assetPath: (url) => (url.startsWith("/fonts/") ? path.resolve("public", `.${url}`) : files.background!),
    ...changes,
  };
}

/**
 * A piece store in memory, which remembers which files of each piece a render asked for (all when
 * it named none). With `keepIn`, a piece's files are copied there as they are stored: a
 * preparation removes its working folder when it ends, as the real store moves them out of it.
 */
export function memoryStore(keepIn?: string) {
  const stored = new Map<string, StoredPiece>();
  const asked = new Map<string, readonly string[] | "all">();
  const keep = async (key: string, pieceFiles: Record<string, string>) => {
    if (!keepIn) return pieceFiles;
    const folder = path.join(keepIn, key);
    await mkdir(folder, { recursive: true });
    const kept = Object.entries(pieceFiles).map(async ([name, file]) => {
      const copy = path.join(folder, `${name}${path.extname(file)}`);
      await copyFile(file, copy);
      return [name, copy] as const;
    });
    return Object.fromEntries(await Promise.all(kept));
  };
  const store: PieceStore = {
    has: async (key) => stored.has(key),
    get: async (key, only) => {
      const piece = stored.get(key);
      if (!piece) return null;
      asked.set(key, only ?? "all");
      return { ...piece, files: Object.fromEntries(Object.entries(piece.files).filter(([name]) => !only || only.includes(name))) };
    },
    put: async (key, _kind, pieceFiles, frames) => {
      const piece = { files: await keep(key, pieceFiles), frames };
      stored.set(key, piece);
      return piece;
    },
  };
  return { store, asked };
}
