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
  const box = inputs.textBox;
  const withBox = (picture: string, boxLabel: string, out: string) =>
    box ? [`${picture}[${boxLabel}]overlay=${box.x}:${box.y}:format=yuv420[${out}]`] : [`${picture}null[${out}]`];

  // A still's tail is its own short chain, started with everything else. Split off the end of one
  // long chain, it would make ffmpeg run the whole still (which needs no input frames to go on)
  // into the body's queue before the tail's first frame: ~400 MB of raw frames at 1080p.
  const stillTail = !isClip && tailFrames > 0;
  const mainFrames = stillTail ? frames - tailFrames : frames;
  if (box) graph.push(`[1:v]${overlayImage()}${stillTail ? ",split=2[box][box_tail]" : "[box]"}`);
  if (isClip) {
    // Held on its last frame when the clip is shorter than the item (plan.ts minClipSeconds).
    graph.push(
      `[0:v]fps=${fps},setpts=PTS-STARTPTS,trim=end_frame=${Math.min(inputs.sourceFrames, frames)},tpad=stop=-1:stop_mode=clone,` +
        `trim=end_frame=${frames},scale=${frame.width}:${frame.height},setsar=1,format=yuv420p[picture]`,
    );
  } else {
    const still = (count: number, first: number) =>
      `loop=loop=${count - 1}:size=1:start=0,settb=1/${fps},setpts=N${stillEffects(segment, fps, first)}`;
    graph.push(
      `[0:v]${stillToFrame(frame)}${stillTail ? ",split=2[still][still_tail]" : "[still]"}`,
      `[still]${still(mainFrames, 0)}[picture]`,
    );
    if (stillTail) {
      graph.push(`[still_tail]${still(tailFrames, mainFrames)}[picture_tail]`);
      graph.push(...withBox("[picture_tail]", "box_tail", "tail_shaped"), `[tail_shaped]setpts=N/(${fps}*TB)[tail]`);
    }
  }
  graph.push(...withBox("[picture]", "box", "shaped"));

  // The rest of the item is split into its body, and its head and tail (unless made above).
  const parts = [
    { label: "body", start: headFrames, end: frames - tailFrames },
    ...(headFrames > 0 ? [{ label: "head", start: 0, end: headFrames }] : []),
    ...(tailFrames > 0 && !stillTail ? [{ label: "tail", start: frames - tailFrames, end: frames }] : []),
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
    "-map",
    "[body]",
    ...videoEncodingArgs(profile),
    outputs.body,
    ...(headFrames > 0 && outputs.head ? ["-map", "[head]", ...losslessVideoArgs(profile), outputs.head] : []),
    ...(tailFrames > 0 && outputs.tail ? ["-map", "[tail]", ...losslessVideoArgs(profile), outputs.tail] : []),
    "-map",
    "[audio]",
    ...pcmAudioArgs(),
    outputs.audio,
  ];
  return ["-hide_banner", "-v", "error", "-y", ...args, "-filter_complex", graph.join(";"), ...written];
}

/** The still's effects for a chain whose first frame is frame `first` of the item. */
function stillEffects(segment: Segment, fps: number, first: number) {
  if (segment.kind === "photo") return `,${cameraMove(segment.motion, segment.frames, first)}`;
  if (segment.kind === "collage") return `,${cameraMove("gentle-zoom", segment.frames, first)}`;
  if (segment.kind !== "title") return "";
  const fade = Math.max(1, Math.min(Math.round(TITLE_FADE_SECONDS * fps), Math.floor(segment.frames / 3)));
  // The intro's first frame is black; the outro's last frame is black. A crossfade takes at most a
  // third of an item, so a tail chain never starts inside the intro's fade, and the outro, last,
  // has no tail.
  if (segment.role === "intro") {
    if (first === 0) return `,fade=t=in:s=0:n=${fade}`;
    if (first < fade) throw new RangeError("A chain cannot start inside the intro's fade");
    return "";
  }
  const fadeStart = Math.max(0, segment.frames - fade - 1) - first;
  if (fadeStart < 0) throw new RangeError("A chain cannot start inside the outro's fade");
  return `,fade=t=out:s=${fadeStart}:n=${fade}`;
}
