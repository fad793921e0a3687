// The HLS ladder of a published video (docs/decisions/036), the pure part: which rungs a video
// gets, and the ffmpeg arguments that make them, from the MP4 or from rung pieces. The playlists
// around them are hls-playlists.ts.

import { BT709_TAGS } from "./pieces/encoding";

/** Heights a ladder may have; a video gets those up to its own height, its own height copied. */
const HEIGHTS = [360, 540, 720, 1080] as const;

/**
 * ffmpeg cuts parts of about this length, joined into segments (hls-playlists.ts) but for the
 * first, which stays one part: on a slow link the first picture waits for the whole first segment.
 */
const PART_SECONDS = 2;

/**
 * The cap on each encoded rung's video, in kbit/s, with a buffer of two seconds. 360p stays small
 * enough that its first segment arrives within a second or two on a 1.6 Mbit/s link.
 */
const VIDEO_KBITS: Record<number, number> = { 360: 450, 540: 1_100, 720: 2_200, 1080: 4_500 };
/** Sound of the encoded rungs; the copied rung keeps the published video's. */
const AUDIO_KBITS: Record<number, number> = { 360: 64, 540: 96, 720: 128, 1080: 128 };
/** The H.264 level each encoded height declares (level_idc, as ffmpeg takes it and RFC 6381 writes it). */
const LEVELS: Record<number, number> = { 360: 30, 540: 31, 720: 31, 1080: 40 };

export interface RungPlan {
  name: string;
  width: number;
  height: number;
  /** True for the rung at the published size: its video and sound are copied, not encoded. */
  copy: boolean;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The rungs of a video `width` × `height`: each standard height below it, and its own size. */
export function ladderRungs(width: number, height: number): RungPlan[] {
  const rungs: RungPlan[] = HEIGHTS.filter((h) => h < height).map((h) => ({
    name: `${h}p`,
    width: even((width * h) / height),
    height: h,
    copy: false,
  }));
  rungs.push({ name: `${height}p`, width, height, copy: true });
  return rungs;
}

/** The file names of one rung in the ladder's folder. */
export const rungFiles = (name: string) => ({
  playlist: `${name}.m3u8`,
  init: `${name}_init.mp4`,
  segment: (index: number) => `${name}_${String(index).padStart(4, "0")}.m4s`,
  /** What ffmpeg writes, before its parts are joined into segments (not kept). */
  partsPlaylist: `${name}_parts.m3u8`,
  partPattern: `${name}_part%04d.m4s`,
});

export const MASTER_PLAYLIST = "master.m3u8";

/**
 * Key frame times for the encoded rungs: the published video's own, a little early so a frame
 * whose time was rounded up still counts. Every rung then cuts its segments at the same frames.
 */
export function forcedKeyFrames(keyFrameSeconds: readonly number[]) {
  return keyFrameSeconds.map((t) => Math.max(0, t - 0.001).toFixed(3)).join(",");
}

/**
 * The filter graph that scales one decoded picture (`input`, a stream label) to every encoded rung:
 * `[v0]`, `[v1]`… in the order of `encoded`.
 */
function scaleToRungs(input: string, encoded: readonly RungPlan[]) {
  const split = encoded.length > 1 ? `[${input}]split=${encoded.length}${encoded.map((_, i) => `[s${i}]`).join("")};` : "";
  const scales = encoded.map((r, i) => `[${encoded.length > 1 ? `s${i}` : input}]scale=${r.width}:${r.height},setsar=1[v${i}]`);
  return split + scales.join(";");
}

/**
 * The encoder settings of an encoded rung's video, whether the rung is made from the published
 * video or piece by piece (docs/decisions/036): `keyFrames` is `-force_key_frames`' value, the only
 * key frames it gets.
 */
function rungVideoArgs(rung: RungPlan, keyFrames: string) {
  const kbits = VIDEO_KBITS[rung.height] ?? VIDEO_KBITS[1080]!;
  return [
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    "-maxrate",
    `${kbits}k`,
    "-bufsize",
    `${kbits * 2}k`,
    "-profile:v",
    "high",
    "-level:v",
    String(LEVELS[rung.height] ?? 40),
    "-pix_fmt",
    "yuv420p",
    // The published video's key frames and no others: segments of every rung start on the same frame.
    "-force_key_frames",
    keyFrames,
    "-g",
    "9999",
    "-sc_threshold",
    "0",
    "-threads",
    "2",
    ...BT709_TAGS,
  ];
}

/** An encoded rung's sound: the published video's, at the rung's AAC rate. */
const rungAudioArgs = (rung: RungPlan) => ["-c:a", "aac", "-b:a", `${AUDIO_KBITS[rung.height] ?? 128}k`, "-ac", "2", "-ar", "48000"];

/** A rung's HLS output: fMP4 parts of about PART_SECONDS, cut at its key frames, into `dir`. */
function rungHlsArgs(dir: string, rung: RungPlan) {
  const files = rungFiles(rung.name);
  return [
    "-f",
    "hls",
    "-hls_time",
    String(PART_SECONDS),
    "-hls_playlist_type",
    "vod",
    "-hls_segment_type",
    "fmp4",
    "-hls_flags",
    "independent_segments",
    "-hls_fmp4_init_filename",
    files.init,
    "-hls_segment_filename",
    `${dir}/${files.partPattern}`,
    `${dir}/${files.partsPlaylist}`,
  ];
}

/**
 * One ffmpeg run that reads the published video once and writes every rung as fMP4 HLS into
 * `dir`: the smaller ones scaled and encoded, the top one copied.
 */
export function ladderArgs(input: string, dir: string, rungs: readonly RungPlan[], options: { keyFrames: string; hasAudio: boolean }) {
  const encoded = rungs.filter((r) => !r.copy);
  const args = ["-hide_banner", "-v", "error", "-y", "-i", input];
  if (encoded.length) args.push("-filter_complex", scaleToRungs("0:v", encoded));
  for (const rung of rungs) {
    const index = encoded.indexOf(rung);
    args.push("-map", rung.copy ? "0:v:0" : `[v${index}]`);
    if (options.hasAudio) args.push("-map", "0:a:0");
    if (rung.copy) args.push("-c", "copy");
    else args.push(...rungVideoArgs(rung, options.keyFrames), ...(options.hasAudio ? rungAudioArgs(rung) : []));
    args.push(...rungHlsArgs(dir, rung));
  }
  return args;
}

/**
 * Bumped when what a rung piece holds changes in a way its arguments do not show (its key also
 * hashes the arguments themselves), so stored rung pieces are made again.
 */
const RUNG_PIECE_VERSION = 1;

/**
 * One ffmpeg run that makes a video piece's rung pieces: the full-size piece decoded once, scaled
 * and encoded for each encoded rung with the ladder's settings, no sound, key frames at exactly
 * `keyFrames` (frame numbers: the full-size piece's own), written as MP4 with the pieces' time base
 * so they join with `-c copy` as the full-size pieces do. `outputs`: a file per rung name.
 */
export function rungPieceArgs(
  input: string,
  outputs: Readonly<Record<string, string>>,
  rungs: readonly RungPlan[],
  options: { keyFrames: readonly number[]; timescale: string },
) {
  const encoded = rungs.filter((r) => !r.copy);
  const keyFrames = `expr:${(options.keyFrames.length ? options.keyFrames : [0]).map((n) => `eq(n,${n})`).join("+")}`;
  const args = ["-hide_banner", "-v", "error", "-y", "-i", input, "-filter_complex", scaleToRungs("0:v", encoded)];
  encoded.forEach((rung, i) => {
    const output = outputs[rung.name];
    if (!output) throw new Error(`rung piece: no file for ${rung.name}`);
    args.push(
      "-map",
      `[v${i}]`,
      "-an",
      ...rungVideoArgs(rung, keyFrames),
      // A forced key frame is otherwise an I frame that later frames may still refer across.
      "-forced-idr",
      "1",
      "-video_track_timescale",
      options.timescale,
      "-map_metadata",
      "-1",
      "-f",
      "mp4",
      output,
    );
  });
  return args;
}

/** What a rung piece's key hashes besides its piece's: the settings it is made with. */
export function rungPieceSettings(rungs: readonly RungPlan[], timescale: string) {
  const outputs = Object.fromEntries(rungs.map((r) => [r.name, `${r.name}.mp4`]));
  return { version: RUNG_PIECE_VERSION, args: rungPieceArgs("piece.mp4", outputs, rungs, { keyFrames: [], timescale }) };
}

/**
 * One ffmpeg run that writes the ladder from rung pieces: each encoded rung's video is its pieces
 * joined by the concat demuxer (`lists`, a list file per rung name, input 0, 1…) and copied; its sound
 * is the published video's (`input`, the last input), encoded at the rung's rate; the top rung is
 * the published video, copied. Nothing of the picture is decoded.
 */
export function ladderFromPiecesArgs(
  input: string,
  lists: Readonly<Record<string, string>>,
  dir: string,
  rungs: readonly RungPlan[],
  options: { hasAudio: boolean },
) {
  const encoded = rungs.filter((r) => !r.copy);
  const args = ["-hide_banner", "-v", "error", "-y"];
  for (const rung of encoded) {
    const list = lists[rung.name];
    if (!list) throw new Error(`ladder: no pieces for ${rung.name}`);
    args.push("-f", "concat", "-safe", "0", "-i", list);
  }
  args.push("-i", input);
  const published = encoded.length;
  for (const rung of rungs) {
    args.push("-map", rung.copy ? `${published}:v:0` : `${encoded.indexOf(rung)}:v:0`);
    if (options.hasAudio) args.push("-map", `${published}:a:0`);
    if (rung.copy) args.push("-c", "copy");
    else args.push("-c:v", "copy", ...(options.hasAudio ? rungAudioArgs(rung) : []));
    args.push(...rungHlsArgs(dir, rung));
  }
  return args;
}

/** The level of an H.264 stream as RFC 6381 writes it: avc1.PPCCLL (profile, constraints, level). */
export function avcCodec(profile: string | undefined, level: number | undefined) {
  const p = (profile ?? "").toLowerCase();
  const profileHex = p.includes("high") ? "6400" : p.includes("main") ? "4d40" : "42e0";
  return `avc1.${profileHex}${(level ?? 40).toString(16).padStart(2, "0")}`;
}

/** The codecs of an encoded rung at `height`: High profile at its level, AAC-LC. */
export const encodedRungCodecs = (height: number, hasAudio: boolean) =>
  [avcCodec("high", LEVELS[height] ?? 40), ...(hasAudio ? ["mp4a.40.2"] : [])].join(",");
