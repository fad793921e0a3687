import fs from "node:fs/promises";
import path from "node:path";
import type { LadderRung } from "drizzle/schema";
import { runFfmpeg, runFfprobe } from "~/media/run.server";
import {
  MASTER_PLAYLIST,
  avcCodec,
  encodedRungCodecs,
  forcedKeyFrames,
  groupParts,
  ladderArgs,
  ladderRungs,
  masterPlaylist,
  mediaPlaylist,
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
    const written = await fs.readFile(path.join(dir, names.partsPlaylist), "utf8");
    const parts = playlistSegments(written);
    const init = playlistInit(written);
    if (!parts.length || !init) throw new Error(`ladder rung ${plan.name}: no segments written`);
    const segments = [];
    for (const [index, group] of groupParts(parts.map((p) => p.seconds)).entries()) {
      const uri = names.segment(index);
      const bytes = await joinParts(
        group.map((i) => path.join(dir, parts[i]!.uri)),
        path.join(dir, uri),
      );
      segments.push({ uri, bytes, seconds: group.reduce((sum, i) => sum + parts[i]!.seconds, 0) });
    }
    await fs.writeFile(path.join(dir, names.playlist), mediaPlaylist(init, segments));
    rungs.push({
      name: plan.name,
      width: plan.width,
      height: plan.height,
      ...rungBandwidth(segments),
      codecs: plan.copy
        ? [source.videoCodec, ...(source.hasAudio ? ["mp4a.40.2"] : [])].join(",")
        : encodedRungCodecs(plan.height, source.hasAudio),
    });
    files.push(names.playlist, init, ...segments.map((s) => s.uri));
  }
  await fs.writeFile(path.join(dir, MASTER_PLAYLIST), masterPlaylist(rungs, source.fps));
  return { rungs, files };
}

/**
 * Joins parts ffmpeg wrote into one media segment: their movie fragments (moof + mdat) one after
 * another, which a fMP4 segment may hold, behind the first part's `styp`. Each part's `sidx` indexes
 * only itself and is left out. ffmpeg writes fragments whose data offsets count from their own
 * moof (default-base-is-moof), so they read the same wherever they land. Answers the bytes written.
 */
async function joinParts(parts: readonly string[], output: string) {
  const kept: Buffer[] = [];
  for (const [index, part] of parts.entries()) {
    const bytes = await fs.readFile(part);
    for (const box of topLevelBoxes(bytes)) {
      if (box.type === "sidx" || (box.type === "styp" && index > 0)) continue;
      kept.push(bytes.subarray(box.start, box.end));
    }
  }
  const joined = Buffer.concat(kept);
  await fs.writeFile(output, joined);
  return joined.length;
}

function* topLevelBoxes(bytes: Buffer) {
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    else if (size === 0) size = bytes.length - at;
    if (size < 8 || at + size > bytes.length) throw new Error(`ladder part: a box "${type}" runs past the end of the file`);
    yield { type, start: at, end: at + size };
    at += size;
  }
}
