import fs from "node:fs/promises";
import path from "node:path";
import type { LadderRung } from "drizzle/schema";
import { runFfmpeg, runFfprobe } from "~/media/run.server";
import {
  MASTER_PLAYLIST,
  avcCodec,
  encodedRungCodecs,
  forcedKeyFrames,
  ladderArgs,
  ladderRungs,
  masterPlaylist,
  playlistInit,
  playlistSegments,
  rungBandwidth,
  rungFiles,
} from "./ladder";

interface SourceInfo {
  width: number;
  height: number;
  fps: number;
  videoCodec: string;
  hasAudio: boolean;
  keyFrames: number[];
}

/** What the ladder needs to know of the published video: its size, codec and key frames. */
async function sourceInfo(input: string, signal?: AbortSignal): Promise<SourceInfo> {
  const { stdout } = await runFfprobe(["-v", "error", "-print_format", "json", "-show_streams", input], { signal });
  const streams = (JSON.parse(stdout) as { streams?: Array<Record<string, unknown>> }).streams ?? [];
  const video = streams.find((s) => s.codec_type === "video");
  if (!video || typeof video.width !== "number" || typeof video.height !== "number") throw new Error(`${input}: no video stream`);
  const [num, den] = String(video.avg_frame_rate ?? "30/1")
    .split("/")
    .map(Number);
  // Packets, not frames: nothing is decoded, so this takes a moment even for a long video.
  const packets = await runFfprobe(
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", input],
    { signal, timeoutMs: 120_000 },
  );
  const keyFrames = packets.stdout
    .split("\n")
    .map((line) => line.split(","))
    .filter(([, flags]) => flags?.includes("K"))
    .map(([time]) => Number(time))
    .filter((t) => Number.isFinite(t))
    .sort((a, b) => a - b);
  return {
    width: video.width,
    height: video.height,
    fps: num && den ? num / den : 30,
    videoCodec: avcCodec(video.profile as string | undefined, video.level as number | undefined),
    hasAudio: streams.some((s) => s.codec_type === "audio"),
    keyFrames,
  };
}

export interface MadeLadder {
  rungs: LadderRung[];
  /** Every file written in `dir`, the master playlist first. */
  files: string[];
}

/**
 * Makes the HLS ladder of a published video in `dir` (empty): one ffmpeg run that decodes it
 * once, encodes each smaller rung and copies its own size, then a master playlist whose figures
 * come from the segments as written.
 */
export async function makeLadder(input: string, dir: string, options: { signal?: AbortSignal } = {}): Promise<MadeLadder> {
  const source = await sourceInfo(input, options.signal);
  const plans = ladderRungs(source.width, source.height);
  await runFfmpeg(ladderArgs(input, dir, plans, { keyFrames: forcedKeyFrames(source.keyFrames), hasAudio: source.hasAudio }), {
    signal: options.signal,
  });
  const rungs: LadderRung[] = [];
  const files: string[] = [MASTER_PLAYLIST];
  for (const plan of plans) {
    const names = rungFiles(plan.name);
    const playlist = await fs.readFile(path.join(dir, names.playlist), "utf8");
    const segments = playlistSegments(playlist);
    const init = playlistInit(playlist);
    if (!segments.length || !init) throw new Error(`ladder rung ${plan.name}: no segments written`);
    const sized = await Promise.all(segments.map(async (s) => ({ ...s, bytes: (await fs.stat(path.join(dir, s.uri))).size })));
    rungs.push({
      name: plan.name,
      width: plan.width,
      height: plan.height,
      ...rungBandwidth(sized),
      codecs: plan.copy
        ? [source.videoCodec, ...(source.hasAudio ? ["mp4a.40.2"] : [])].join(",")
        : encodedRungCodecs(plan.height, source.hasAudio),
    });
    files.push(names.playlist, init, ...segments.map((s) => s.uri));
  }
  await fs.writeFile(path.join(dir, MASTER_PLAYLIST), masterPlaylist(rungs, source.fps));
  return { rungs, files };
}
