import fs from "node:fs/promises";
import path from "node:path";
import type { LadderRung } from "drizzle/schema";
import { runFfmpeg, runFfprobe } from "~/media/run.server";
import { groupParts, masterPlaylist, mediaPlaylist, playlistInit, playlistSegments, rungBandwidth } from "./hls-playlists";
import {
  MASTER_PLAYLIST,
  avcCodec,
  encodedRungCodecs,
  forcedKeyFrames,
  ladderArgs,
  ladderFromPiecesArgs,
  ladderRungs,
  rungFiles,
} from "./ladder";
import { concatList } from "./pieces/join.server";

interface SourceInfo {
  width: number;
  height: number;
  fps: number;
  videoCodec: string;
  hasAudio: boolean;
}

/** What the ladder needs to know of the published video: its size, codec and sound. */
async function sourceInfo(input: string, signal?: AbortSignal): Promise<SourceInfo> {
  const { stdout } = await runFfprobe(["-v", "error", "-print_format", "json", "-show_streams", input], { signal });
  const streams = (JSON.parse(stdout) as { streams?: Array<Record<string, unknown>> }).streams ?? [];
  const video = streams.find((s) => s.codec_type === "video");
  if (!video || typeof video.width !== "number" || typeof video.height !== "number") throw new Error(`${input}: no video stream`);
  const [num, den] = String(video.avg_frame_rate ?? "30/1")
    .split("/")
    .map(Number);
  return {
    width: video.width,
    height: video.height,
    fps: num && den ? num / den : 30,
    videoCodec: avcCodec(video.profile as string | undefined, video.level as number | undefined),
    hasAudio: streams.some((s) => s.codec_type === "audio"),
  };
}

/**
 * The key frames of a video's first stream, read from its packets: nothing is decoded, so this takes
 * a moment even for a long video. Each is given by its time and by its frame number (its place
 * among the frames in display order).
 */
export async function keyFramesOf(input: string, signal?: AbortSignal) {
  const packets = await runFfprobe(
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", input],
    { signal, timeoutMs: 120_000 },
  );
  const frames = packets.stdout
    .split("\n")
    .map((line) => line.split(","))
    .filter(([time]) => time !== undefined && time !== "" && Number.isFinite(Number(time)))
    .map(([time, flags]) => ({ seconds: Number(time), key: flags?.includes("K") ?? false }))
    .sort((a, b) => a.seconds - b.seconds);
  const keys = frames.flatMap((frame, index) => (frame.key ? [{ seconds: frame.seconds, frame: index }] : []));
  return { seconds: keys.map((k) => k.seconds), frames: keys.map((k) => k.frame), count: frames.length };
}

export interface MadeLadder {
  rungs: LadderRung[];
  /** Every file written in `dir`, the master playlist first. */
  files: string[];
}

/**
 * Makes the HLS ladder of a published video in `dir` (empty), in one ffmpeg run: given `pieces`
 * (each encoded rung's rung pieces in join order, by rung name), each encoded rung's video is its
 * pieces joined, and only the sound is encoded; otherwise the video is decoded once and each
 * smaller rung encoded from it. The top rung copies the video. Then a master playlist whose
 * figures come from the segments as written.
 */
export async function makeLadder(
  input: string,
  dir: string,
  options: { signal?: AbortSignal; pieces?: Readonly<Record<string, readonly string[]>> } = {},
): Promise<MadeLadder> {
  const source = await sourceInfo(input, options.signal);
  const plans = ladderRungs(source.width, source.height);
  if (options.pieces) {
    const lists: Record<string, string> = {};
    for (const plan of plans.filter((p) => !p.copy)) {
      const files = options.pieces[plan.name];
      if (!files?.length) throw new Error(`ladder rung ${plan.name}: no pieces`);
      lists[plan.name] = path.join(dir, `${plan.name}_pieces.txt`);
      await fs.writeFile(lists[plan.name]!, concatList(files));
    }
    await runFfmpeg(ladderFromPiecesArgs(input, lists, dir, plans, { hasAudio: source.hasAudio }), { signal: options.signal });
    for (const list of Object.values(lists)) await fs.rm(list, { force: true });
  } else {
    const keyFrames = await keyFramesOf(input, options.signal);
    await runFfmpeg(ladderArgs(input, dir, plans, { keyFrames: forcedKeyFrames(keyFrames.seconds), hasAudio: source.hasAudio }), {
      signal: options.signal,
    });
  }
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
