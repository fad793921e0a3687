// The one set of encoder settings every video piece is written with (docs/rendering.md): bodies and
// transitions made at different times are joined with `-f concat -c copy`, which only works when
// every piece has the same size, codec, profile, level, pixel format, frame rate and time base.
// Any change here must bump `encoderVersion` in plan.ts PROFILES, so old pieces are re-rendered.

import type { OutputProfile } from "../plan";

/** Output options that tag a video as BT.709, limited range: what every piece, and the ladder made from them, is. */
export const BT709_TAGS = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"];

/** Audio of every piece and of the soundtrack: 48 kHz stereo, as the renditions are. */
export const AUDIO_RATE = 48_000;
export const AUDIO_CHANNELS = 2;

/** Samples of audio that fall within the first `frames` frames of the timeline. */
export const samplesForFrames = (frames: number, fps: number) => Math.round((frames * AUDIO_RATE) / fps);

/** A key frame every two seconds: a fixed GOP, so pieces start and cut alike. */
const gopFrames = (profile: OutputProfile) => profile.fps * 2;

/**
 * The most a second of the finished video may take at 1080p, in kbit/s; other frame sizes scale by
 * area. Without a cap, CRF 21 spent 16 Mbit/s on a grainy phone clip and 135 Mbit/s on a crossfade
 * of two (fresh noise in every frame), far over the 25 Mbit/s that level 4.0, which every piece
 * declares, lets a decoder expect; and the entropy coding of those bits was most of a crossfade's
 * time. 10 Mbit/s is what streaming services give 1080p30 and less than the renditions carry.
 */
const MAX_KBITS_1080P = 10_000;

export function videoMaxKbits(profile: Pick<OutputProfile, "width" | "height">) {
  return Math.max(500, Math.round((MAX_KBITS_1080P * profile.width * profile.height) / (1920 * 1080)));
}

/**
 * Output options of every body and transition (without the file name), for an encoder of `threads`
 * threads: the cores its render slot has (`slotThreads`). The thread count only changes how each
 * frame is cut into slices, nothing a join or a player depends on.
 */
export function videoEncodingArgs(profile: OutputProfile, threads: number): string[] {
  return [...videoCodecArgs(profile, threads), ...mp4Args(profile)];
}

/**
 * Output options that encode consecutive parts with one encoder and cut them apart without
 * re-encoding, `partFrames` frames each, to files named by `pattern` (`%d`: the part's index). One
 * x264 at 1080p holds ~0.1 GB of lookahead and reference frames; a clip scene's two parts each had
 * their own (docs/decisions/038). Each cut is an IDR frame, so a part decodes alone and joins with
 * parts encoded on their own exactly as they would: same settings, same MP4, starting at 0.
 */
export function videoPartsArgs(profile: OutputProfile, partFrames: readonly number[], pattern: string, threads: number): string[] {
  const cuts = partFrames.slice(0, -1).map((_, i) => partFrames.slice(0, i + 1).reduce((sum, n) => sum + n, 0));
  return [
    ...videoCodecArgs(profile, threads),
    "-force_key_frames",
    `expr:${cuts.map((n) => `eq(n,${n})`).join("+")}`,
    // A forced key frame is otherwise an I frame that later frames may still refer across.
    "-forced-idr",
    "1",
    "-map_metadata",
    "-1",
    // Left to the MP4 of each part, as when a part is written alone: shifted by the segment muxer,
    // the first part started two frames late (its B-frame delay, less a rounding).
    "-avoid_negative_ts",
    "disabled",
    "-f",
    "segment",
    "-segment_format",
    "mp4",
    "-segment_format_options",
    `video_track_timescale=${trackTimescale(profile)}`,
    "-segment_frames",
    cuts.join(","),
    // Each part's timestamps start at 0, as a part encoded alone does.
    "-reset_timestamps",
    "1",
    pattern,
  ];
}

/** The encoder's own options, shared by every way a video piece is written. */
function videoCodecArgs(profile: OutputProfile, threads: number): string[] {
  return [
    "-an",
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    // The simplest motion search and sub-pixel refinement: on a phone's 1080p clip x264 spent 31%
    // less CPU for the same SSIM (0.987) at the same CRF, in 13% more bits, within the cap below
    // (docs/decisions/040). The pieces are most of a render's work; a plain encode is the yardstick.
    // Threads share each frame (slices) instead of holding a frame each: ~45 MB less at 1080p for
    // the same CPU, size and SSIM; two scenes run at once in 1 GB.
    "-x264-params",
    "me=dia:subme=1:sliced-threads=1",
    "-crf",
    "21",
    "-profile:v",
    "high",
    "-level:v",
    "4.0",
    "-pix_fmt",
    "yuv420p",
    // A rate-control buffer of two seconds: each piece may spend it once on top of the cap.
    "-maxrate",
    `${videoMaxKbits(profile)}k`,
    "-bufsize",
    `${videoMaxKbits(profile) * 2}k`,
    "-r",
    String(profile.fps),
    "-g",
    String(gopFrames(profile)),
    "-keyint_min",
    String(gopFrames(profile)),
    "-sc_threshold",
    "0",
    // The cores of one render slot: on two cores with two slots, one thread each kept both cores
    // busier than two sliced threads each (bench/README.md, 2026-11-28).
    "-threads",
    String(threads),
    // Stills and title cards are converted to BT.709 (see stills.ts); saying so keeps players from guessing.
    ...BT709_TAGS,
  ];
}

/** The mp4 time base follows the frame rate, set here so every ffmpeg version picks the same one. */
export const trackTimescale = (profile: OutputProfile) => String(profile.fps * 512);

/** The MP4 every video piece is written as. */
const mp4Args = (profile: OutputProfile) => ["-video_track_timescale", trackTimescale(profile), "-map_metadata", "-1", "-f", "mp4"];

/**
 * Output options of the short head and tail snippets a transition is made from: lossless, so a
 * crossfade re-encodes its frames only once, like every other frame of the video. Ut Video in MOV:
 * a crossfade decodes two of them, and Ut Video decodes in ~60% of the time lossless x264 takes
 * and encodes in half (for files ~1.6× larger); FFV1 held ~150 MB per output at 720p. MOV keeps
 * the frame index `verify.server.ts` reads.
 */
export function losslessVideoArgs(profile: OutputProfile): string[] {
  return ["-an", "-c:v", "utvideo", "-pix_fmt", "yuv420p", "-r", String(profile.fps), "-map_metadata", "-1", "-f", "mov"];
}

/** Output options of a segment's audio: raw PCM the soundtrack job mixes in Node. */
export const pcmAudioArgs = (): string[] => [
  "-vn",
  "-c:a",
  "pcm_s16le",
  "-ar",
  String(AUDIO_RATE),
  "-ac",
  String(AUDIO_CHANNELS),
  "-map_metadata",
  "-1",
  "-f",
  "wav",
];

/** The audio format every graph's audio is brought to before it is trimmed to exact samples. */
export const AUDIO_FORMAT_FILTER = `aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:sample_rates=${AUDIO_RATE}:channel_layouts=stereo`;
