import { execFile } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { env } from "~/lib/env.server";

// docs/architecture.md "Media and render pipeline": ffmpeg comes from FFMPEG_PATH, else the system's,
// else the npm-shipped static build, and the renderer must work with each.

const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);

type Tool = "ffmpeg" | "ffprobe";

const setting = { ffmpeg: "FFMPEG_PATH", ffprobe: "FFPROBE_PATH" } as const satisfies Record<Tool, string>;
// Loaded only when needed, so a machine with FFMPEG_PATH or a system ffmpeg never touches them.
const npmPackage: Record<Tool, string> = { ffmpeg: "@ffmpeg-installer/ffmpeg", ffprobe: "@ffprobe-installer/ffprobe" };

/**
 * glibc's allocator, as ffmpeg gets it: frame-sized blocks (3 MB at 1080p) from the heap instead of
 * a mapping of their own each, and the heap grown and trimmed 64 MB at a time. By default ffmpeg's
 * buffers were mapped and unmapped over and over, and the kernel zeroed their pages each time: a
 * clip's x264 encode spent 0.16 s in the kernel instead of 0.07 s, a crossfade 0.14 s instead of
 * 0.09–0.11 s (docs/decisions/044). Other C libraries ignore these variables.
 */
const FFMPEG_ALLOCATOR = { MALLOC_MMAP_THRESHOLD_: String(32 << 20), MALLOC_TOP_PAD_: String(64 << 20) };

/** The environment every ffmpeg run gets: this process's, with the allocator's settings above. */
export const ffmpegEnvironment = (): NodeJS.ProcessEnv => ({ ...process.env, ...FFMPEG_ALLOCATOR });

export const ffmpegPath = () => resolveTool("ffmpeg");
export const ffprobePath = () => resolveTool("ffprobe");

function resolveTool(tool: Tool): string {
  const fromSettings = env()[setting[tool]];
  if (fromSettings) return fromSettings;
  const onPath = findOnPath(tool);
  if (onPath) return onPath;
  return (require(npmPackage[tool]) as { path: string }).path;
}

/** The first executable file called `name` in a PATH directory, looked up without a shell. */
export function findOnPath(name: string, searchPath = process.env.PATH ?? ""): string | null {
  const names = process.platform === "win32" ? [`${name}.exe`, name] : [name];
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    for (const candidate of names.map((n) => path.join(dir, n))) {
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

function isExecutableFile(file: string) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

// libavformat major.minor of each release, for builds that name no release. Static builds from
// git master print "N-47683-g0e8eb07980" (the npm build, libavformat 58.24 → between 4.1 and 4.2),
// so the library version is the only reliable clue to which options and filters exist.
const releasesByLibavformat: ReadonlyArray<[number, number, string]> = [
  [58, 12, "4.0"],
  [58, 20, "4.1"],
  [58, 29, "4.2"],
  [58, 45, "4.3"],
  [58, 76, "4.4"],
  [59, 16, "5.0"],
  [59, 27, "5.1"],
  [60, 3, "6.0"],
  [60, 16, "6.1"],
  [61, 1, "7.0"],
  [61, 7, "7.1"],
  [62, 3, "8.0"],
];

/** "major.minor" of an `ffmpeg -version` text; for a git build, the last release it contains. */
export function parseFfmpegVersion(versionText: string): string | null {
  const named = /version n?(\d+)\.(\d+)/.exec(versionText);
  if (named) return `${named[1]}.${named[2]}`;
  const lavf = /libavformat\s+(\d+)\.\s*(\d+)\./.exec(versionText);
  if (!lavf) return null;
  const [major, minor] = [Number(lavf[1]), Number(lavf[2])];
  let found: string | null = null;
  for (const [m, n, release] of releasesByLibavformat) {
    if (major > m || (major === m && minor >= n)) found = release;
  }
  return found;
}

const versions = new Map<string, Promise<string | null>>();
const filterSets = new Map<string, Promise<Set<string>>>();

/** The ffmpeg release in use as "major.minor" ("4.1" for the npm build), or null if unknown. */
export function ffmpegVersion(): Promise<string | null> {
  const binary = ffmpegPath();
  let version = versions.get(binary);
  if (!version) {
    version = execFileAsync(binary, ["-hide_banner", "-version"]).then(({ stdout }) => parseFfmpegVersion(stdout));
    versions.set(binary, version);
    version.catch(() => versions.delete(binary)); // a failed run is not remembered
  }
  return version;
}

/** Whether the ffmpeg in use has a filter (`xfade` came with 4.3; the npm build is 4.1). */
export async function hasFilter(name: string): Promise<boolean> {
  const binary = ffmpegPath();
  let filters = filterSets.get(binary);
  if (!filters) {
    filters = execFileAsync(binary, ["-hide_banner", "-filters"], { maxBuffer: 4 * 1024 * 1024 }).then(({ stdout }) =>
      parseFilterNames(stdout),
    );
    filterSets.set(binary, filters);
    filters.catch(() => filterSets.delete(binary));
  }
  return (await filters).has(name);
}

/** Filter names of `ffmpeg -filters`: lines like " TSC overlay  VV->V  Overlay a video…". */
export function parseFilterNames(listing: string): Set<string> {
  const names = new Set<string>();
  for (const line of listing.split("\n")) {
    const match = /^\s*[A-Z.|]{3}\s+(\w+)\s+\S+->\S+/.exec(line);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}
