import { chmod, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetEnvCache } from "~/lib/env.server";
import {
  ffmpegPath,
  ffmpegVersion,
  ffprobePath,
  findOnPath,
  hasFilter,
  parseFfmpegVersion,
  parseFilterNames,
} from "~/media/ffmpeg-paths.server";
import { makeTempDir } from "./support/media-fixtures";

const require = createRequire(import.meta.url);
const npmFfmpeg = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
const npmFfprobe = (require("@ffprobe-installer/ffprobe") as { path: string }).path;

let dir: Awaited<ReturnType<typeof makeTempDir>>;
const savedEnv = { FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH, PATH: process.env.PATH };

beforeAll(async () => {
  dir = await makeTempDir("paths");
  await writeFile(dir.path("ffmpeg"), "#!/bin/sh\n");
  await chmod(dir.path("ffmpeg"), 0o755);
  await writeFile(dir.path("ffprobe"), "not executable\n");
});
afterEach(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvCache();
});
afterAll(() => dir.remove());

describe("where ffmpeg comes from", () => {
  test("FFMPEG_PATH and FFPROBE_PATH win", () => {
    process.env.FFMPEG_PATH = "/opt/ffmpeg/bin/ffmpeg";
    process.env.FFPROBE_PATH = "/opt/ffmpeg/bin/ffprobe";
    resetEnvCache();
    expect(ffmpegPath()).toBe("/opt/ffmpeg/bin/ffmpeg");
    expect(ffprobePath()).toBe("/opt/ffmpeg/bin/ffprobe");
  });

  test("then an executable file on PATH, skipping files that cannot be run", () => {
    delete process.env.FFMPEG_PATH;
    delete process.env.FFPROBE_PATH;
    resetEnvCache();
    process.env.PATH = `/nonexistent:${dir.path("")}`;
    expect(ffmpegPath()).toBe(dir.path("ffmpeg"));
    expect(findOnPath("ffprobe")).toBeNull();
    expect(ffprobePath()).toBe(npmFfprobe);
  });

  test("then the npm-shipped static builds", () => {
    delete process.env.FFMPEG_PATH;
    delete process.env.FFPROBE_PATH;
    resetEnvCache();
    process.env.PATH = "";
    expect(ffmpegPath()).toBe(npmFfmpeg);
    expect(ffprobePath()).toBe(npmFfprobe);
  });
});

describe("what the ffmpeg in use can do", () => {
  test("release versions are read from the banner, git builds from libavformat", () => {
    expect(parseFfmpegVersion("ffmpeg version 5.1.6-0+deb12u1 Copyright (c) 2000-2024")).toBe("5.1");
    expect(parseFfmpegVersion("ffmpeg version n7.1 Copyright")).toBe("7.1");
    const npmBuild =
      "ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/\nlibavutil      56. 24.101 / 56. 24.101\nlibavformat    58. 24.100 / 58. 24.100";
    expect(parseFfmpegVersion(npmBuild)).toBe("4.1");
    expect(parseFfmpegVersion("ffmpeg version N-66595-gc2b38619c0-static\nlibavformat    60. 10.100 / 60. 10.100")).toBe("6.0");
    expect(parseFfmpegVersion("something else entirely")).toBeNull();
  });

  test("filter names are read from `ffmpeg -filters`", () => {
    const listing =
      " T.. apad              A->A       Pad audio with silence.\n TSC overlay           VV->V      Overlay a video source on top of the input.\n ... anullsrc          |->A       Null audio source.";
    expect([...parseFilterNames(listing)]).toEqual(["apad", "overlay", "anullsrc"]);
  });

  test("the ffmpeg found here reports its version and filters; xfade only from 4.3", async () => {
    const version = await ffmpegVersion();
    expect(version).toMatch(/^\d+\.\d+$/);
    if (ffmpegPath() === npmFfmpeg) expect(version).toBe("4.1");
    expect(await hasFilter("overlay")).toBe(true);
    expect(await hasFilter("loudnorm")).toBe(true);
    const [major = 0, minor = 0] = (version ?? "0.0").split(".").map(Number);
    expect(await hasFilter("xfade")).toBe(major > 4 || (major === 4 && minor >= 3));
  });
});
