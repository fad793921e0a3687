// The ffmpeg command of one segment (pure): decode once, shape the whole item (camera move,
// caption box, fades), then split it into the body (own frames, final encoding), the head and tail
// (lossless, for the crossfades with its neighbours) and the audio of the whole item as WAV.

import type { OutputProfile, Segment } from "../plan";
import type { PlacedImage } from "./cards.server";
import { AUDIO_FORMAT_FILTER, AUDIO_RATE, losslessVideoArgs, pcmAudioArgs, samplesForFrames, videoEncodingArgs } from "./encoding";
import { cameraMove, overlayImage, stillToFrame } from "./filters";

/** Seconds over which the intro fades in from black and the outro out to black. */
export const TITLE_FADE_SECONDS = 0.6;

/** Short fades where a clip's sound starts and stops, so a cut never clicks. */
const CLIP_AUDIO_FADE_SECONDS = 0.02;

export interface SegmentInputs {
  /** The clip, photo, collage image or title card. */
  picture: string;
  /** Seconds into a clip where the segment starts (0 for stills). */
  inSeconds: number;
  /** Frames of picture a clip gives from `inSeconds`; stills give one. */
  sourceFrames: number;
  /** Whether the clip's own sound is used (stills are silent). */
  sound: boolean;
  textBox: PlacedImage | null;
}

export interface SegmentOutputs {
  body: string;
  head: string | null;
  tail: string | null;
  audio: string;
}

const stillInput = (file: string) => ["-f", "image2", "-pattern_type", "none", "-i", file];

/** ffmpeg arguments (without the progress options) that write every piece of a segment. */
export function segmentArgs(segment: Segment, inputs: SegmentInputs, outputs: SegmentOutputs, profile: OutputProfile): string[] {
  const { fps } = profile;
  const { frames, headFrames, tailFrames } = segment;
  const frame = { width: profile.width, height: profile.height };
  const isClip = segment.kind === "clip";
  const args = isClip ? ["-ss", inputs.inSeconds.toFixed(6), "-i", inputs.picture] : stillInput(inputs.picture);
  if (inputs.textBox) args.push(...stillInput(inputs.textBox.file));

  const graph: string[] = [];
  const shaped = isClip
    ? // Held on its last frame when the clip is shorter than the item (plan.ts minClipSeconds).
      `[0:v]fps=${fps},setpts=PTS-STARTPTS,trim=end_frame=${Math.min(inputs.sourceFrames, frames)},tpad=stop=-1:stop_mode=clone,` +
      `trim=end_frame=${frames},scale=${frame.width}:${frame.height},setsar=1,format=yuv420p`
    : `[0:v]${stillToFrame(frame)},loop=loop=${frames - 1}:size=1:start=0,settb=1/${fps},setpts=N${stillEffects(segment, fps)}`;
  if (inputs.textBox) {
    graph.push(`${shaped}[picture]`, `[1:v]${overlayImage()}[box]`, `[picture][box]overlay=${inputs.textBox.x}:${inputs.textBox.y}:format=yuv420[shaped]`);
  } else {
    graph.push(`${shaped}[shaped]`);
  }

  const parts = [
    { label: "body", start: headFrames, end: frames - tailFrames },
    ...(headFrames > 0 ? [{ label: "head", start: 0, end: headFrames }] : []),
    ...(tailFrames > 0 ? [{ label: "tail", start: frames - tailFrames, end: frames }] : []),
  ];
  graph.push(`[shaped]setpts=N/(${fps}*TB),split=${parts.length}${parts.map((p) => `[${p.label}_all]`).join("")}`);
  for (const part of parts) {
    graph.push(`[${part.label}_all]trim=start_frame=${part.start}:end_frame=${part.end},setpts=N/(${fps}*TB)[${part.label}]`);
  }

  const samples = samplesForFrames(frames, fps);
  if (isClip && inputs.sound) {
    const sourceSamples = samplesForFrames(Math.min(inputs.sourceFrames, frames), fps);
    const soundSeconds = sourceSamples / AUDIO_RATE;
    const fade = Math.min(CLIP_AUDIO_FADE_SECONDS, soundSeconds / 4);
    graph.push(
      `[0:a]${AUDIO_FORMAT_FILTER},asetpts=PTS-STARTPTS,atrim=end_sample=${sourceSamples},` +
        `afade=t=in:st=0:d=${fade.toFixed(4)},afade=t=out:st=${(soundSeconds - fade).toFixed(6)}:d=${fade.toFixed(4)},` +
        `apad,atrim=end_sample=${samples}[audio]`,
    );
  } else {
    graph.push(`anullsrc=r=${AUDIO_RATE}:cl=stereo,atrim=end_sample=${samples}[audio]`);
  }

  const written = [
    "-map", "[body]", ...videoEncodingArgs(profile), outputs.body,
    ...(headFrames > 0 && outputs.head ? ["-map", "[head]", ...losslessVideoArgs(profile), outputs.head] : []),
    ...(tailFrames > 0 && outputs.tail ? ["-map", "[tail]", ...losslessVideoArgs(profile), outputs.tail] : []),
    "-map", "[audio]", ...pcmAudioArgs(), outputs.audio,
  ];
  return ["-hide_banner", "-v", "error", "-y", ...args, "-filter_complex", graph.join(";"), ...written];
}

function stillEffects(segment: Segment, fps: number) {
  if (segment.kind === "photo") return `,${cameraMove(segment.motion, segment.frames)}`;
  if (segment.kind === "collage") return `,${cameraMove("gentle-zoom", segment.frames)}`;
  if (segment.kind !== "title") return "";
  const fade = Math.max(1, Math.min(Math.round(TITLE_FADE_SECONDS * fps), Math.floor(segment.frames / 3)));
  // The intro's first frame is black; the outro's last frame is black.
  return segment.role === "intro" ? `,fade=t=in:s=0:n=${fade}` : `,fade=t=out:s=${Math.max(0, segment.frames - fade - 1)}:n=${fade}`;
}
