// The ffmpeg command of one segment (pure): decode once, shape the item (camera move, fades), and
// write what is asked of it: the head and tail (lossless, for the crossfades with its neighbours),
// the sound of the whole item as WAV, and its parts (docs/decisions/038): the stretch with the
// text box, the picture alone after it, a title card's own frames, each in the final encoding and
// starting with a key frame. Asked for parts only, it decodes only their frames of the source. Parts
// that follow one another share one encoder and are cut apart at key frames (`jointParts`).

import type { OutputProfile, ScenePart, Segment } from "../plan";
import type { FrameSize, PlacedImage } from "./cards.server";
import {
  AUDIO_FORMAT_FILTER,
  AUDIO_RATE,
  losslessVideoArgs,
  pcmAudioArgs,
  samplesForFrames,
  videoEncodingArgs,
  videoPartsArgs,
} from "./encoding";
import { cameraMove, cameraSource, overlayImage, stillToFrame } from "./filters";

/** Seconds over which the intro fades in from black and the outro out to black. */
export const TITLE_FADE_SECONDS = 0.6;

/** Seconds over which the text box fades in at the start of its part and out at the end. */
export const CAPTION_FADE_SECONDS = 0.3;

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
  /** The text box, when a caption part is to be written. */
  textBox: PlacedImage | null;
}

/** Files to write; what is null (or not listed) is not written. */
export interface SegmentOutputs {
  head: string | null;
  tail: string | null;
  audio: string | null;
  parts: { part: ScenePart; file: string }[];
  /**
   * Where the parts go when they are written as one encode cut into pieces (see `jointParts`): each
   * part's file is this with `%d` its index in `parts`.
   */
  partsPattern?: string;
}

/** The first frame and the frame after the last of the parts, when one encoder writes them all. */
export function jointParts(outputs: SegmentOutputs) {
  const { parts, partsPattern } = outputs;
  if (!partsPattern || parts.length < 2) return null;
  const follow = parts.every(({ part }, i) => i === 0 || parts[i - 1]!.part.end === part.start);
  const named = parts.every(({ file }, i) => file === partsPattern.replace("%d", String(i)));
  return follow && named ? { start: parts[0]!.part.start, end: parts.at(-1)!.part.end } : null;
}

const stillInput = (file: string) => ["-f", "image2", "-pattern_type", "none", "-i", file];

/** The video output whose frames ffmpeg's progress counts (see `segmentArgs`), or null with none. */
export function progressOutput(segment: Segment, outputs: SegmentOutputs) {
  const joint = jointParts(outputs);
  const ranges = [
    ...(outputs.head && segment.headFrames > 0 ? [{ start: 0, end: segment.headFrames }] : []),
    ...(joint ? [joint] : outputs.parts.map((p) => p.part)),
    ...(outputs.tail && segment.tailFrames > 0 ? [{ start: segment.frames - segment.tailFrames, end: segment.frames }] : []),
  ];
  return [...ranges].sort((a, b) => b.end - b.start - (a.end - a.start))[0] ?? null;
}

/** A video output of the graph: its label, its frames within the segment and where it goes. */
interface Written {
  label: string;
  start: number;
  end: number;
  file: string;
  lossless: boolean;
  caption: boolean;
}

/** The first frame of the segment a run must decode from, and the frame after the last. */
export function decodedRange(segment: Segment, outputs: SegmentOutputs) {
  if (outputs.head || outputs.tail || outputs.audio) return { first: 0, last: segment.frames };
  const first = Math.min(...outputs.parts.map((p) => p.part.start));
  const last = Math.max(...outputs.parts.map((p) => p.part.end));
  return { first, last };
}

/** ffmpeg arguments (without the progress options) that write the asked-for pieces of a segment. */
export function segmentArgs(
  segment: Segment,
  inputs: SegmentInputs,
  outputs: SegmentOutputs,
  profile: OutputProfile,
  threads: number,
): string[] {
  const { fps } = profile;
  const { frames, headFrames, tailFrames } = segment;
  const frame = { width: profile.width, height: profile.height };
  const written: Written[] = [
    ...(outputs.head && headFrames > 0
      ? [{ label: "head", start: 0, end: headFrames, file: outputs.head, lossless: true, caption: false }]
      : []),
    ...outputs.parts.map(({ part, file }, i) => ({
      label: `part${i}`,
      start: part.start,
      end: part.end,
      file,
      lossless: false,
      caption: part.kind === "caption" && inputs.textBox !== null,
    })),
    ...(outputs.tail && tailFrames > 0
      ? [{ label: "tail", start: frames - tailFrames, end: frames, file: outputs.tail, lossless: true, caption: false }]
      : []),
  ];
  if (written.length === 0 && !outputs.audio) throw new RangeError("Nothing of the segment to write");
  const { first, last } = decodedRange(segment, outputs);
  const isClip = segment.kind === "clip";
  // A clip's tail, when other outputs come first, is decoded on its own from a second seek. ffmpeg
  // feeds first the output that has written nothing yet: fed from the one decode, the tail pulled
  // every frame before it through the graph, and the other outputs' queues held them (a 1080p
  // clip scene peaked at ~0.7 GB instead of ~0.35 GB). Decoding its half second again costs little.
  const ownTail = isClip && written.length > 1 && written.at(-1)!.label === "tail" ? written.at(-1)! : null;
  const fromOne = ownTail ? written.slice(0, -1) : written;
  const oneLast = ownTail ? Math.max(...fromOne.map((w) => w.end)) : last;
  // A range of a clip is decoded from a seek just before it (ffmpeg decodes from the key frame
  // before and drops what comes before the time). Every seek is half a frame early, the whole
  // item's too, so a range picks exactly the source frames the whole item has at those places.
  const clipSeek = (from: number) => {
    const frame = Math.max(0, Math.min(from, inputs.sourceFrames - 1));
    return { frame, args: ["-ss", Math.max(0, inputs.inSeconds + (frame - 0.5) / fps).toFixed(6), "-i", inputs.picture] };
  };
  const seek = clipSeek(first);
  // The clip's decoder, and each encoder, get the cores a render slot has (`threads`): two scene
  // jobs on two cores each decoding with frame threads spent ~5% more CPU, and took ~5% longer,
  // than with one.
  const args = isClip ? ["-threads", String(threads), ...seek.args] : stillInput(inputs.picture);
  const box = inputs.textBox;
  const captions = written.filter((w) => w.caption);
  if (box && captions.length) args.push(...stillInput(box.file));
  const tailSeek = ownTail ? clipSeek(ownTail.start) : null;
  // One decoding thread: a few frames, and no frame-threaded decoder's buffers (~20 MB at 1080p).
  if (tailSeek) args.push("-threads", "1", ...tailSeek.args);

  const graph: string[] = [];
  const chains: string[] = [];
  // A clip's frames `from` to `to` of the item, from input `input` seeked to frame `seekFrame`.
  // Held on its last frame when the clip is shorter than the item (plan.ts minClipSeconds).
  const clipFrames = (input: number, seekFrame: number, from: number, to: number) =>
    `[${input}:v]setpts=PTS-STARTPTS,fps=${fps},trim=end_frame=${Math.min(inputs.sourceFrames - seekFrame, to - seekFrame)},` +
    `tpad=stop=-1:stop_mode=clone,trim=start_frame=${from - seekFrame}:end_frame=${to - seekFrame},` +
    `scale=${frame.width}:${frame.height},setsar=1,format=yuv420p,setpts=N/(${fps}*TB)`;
  if (isClip) {
    graph.push(
      clipFrames(0, seek.frame, first, oneLast) +
        (fromOne.length > 1 ? `,split=${fromOne.length}${fromOne.map((w) => `[${w.label}_all]`).join("")}` : `[${fromOne[0]?.label}_all]`),
    );
    for (const w of fromOne) {
      chains.push(`[${w.label}_all]trim=start_frame=${w.start - first}:end_frame=${w.end - first},setpts=N/(${fps}*TB)`);
    }
    if (ownTail && tailSeek) chains.push(clipFrames(box && captions.length ? 2 : 1, tailSeek.frame, ownTail.start, ownTail.end));
  } else if (written.length) {
    // A still needs no input frames to go on: each output is its own chain from the one picture,
    // so none waits in another's queue (split off one long chain, a 1080p photo's tail held
    // ~400 MB of raw frames until the body had run through).
    const motion = segment.kind === "photo" ? segment.motion : segment.kind === "collage" ? "gentle-zoom" : null;
    graph.push(
      `[0:v]${motion ? cameraSource(motion, frame) : stillToFrame(frame)}` +
        (written.length > 1 ? `,split=${written.length}${written.map((w) => `[${w.label}_all]`).join("")}` : `[${written[0]!.label}_all]`),
    );
    for (const w of written) {
      const count = w.end - w.start;
      chains.push(
        `[${w.label}_all]loop=loop=${count - 1}:size=1:start=0,settb=1/${fps},setpts=N${stillEffects(segment, frame, fps, w.start)}`,
      );
    }
  }
  if (box && captions.length) {
    graph.push(
      `[1:v]${overlayImage()}` +
        (captions.length > 1
          ? `,split=${captions.length}${captions.map((w) => `[${w.label}_box]`).join("")}`
          : `[${captions[0]!.label}_box]`),
    );
  }
  written.forEach((w, i) => {
    if (!w.caption || !box) {
      graph.push(`${chains[i]}[${w.label}]`);
      return;
    }
    // The box fades in where its part starts and out where it ends, over the picture's own frames.
    const count = w.end - w.start;
    const fade = Math.max(1, Math.min(Math.round(CAPTION_FADE_SECONDS * fps), Math.floor(count / 3)));
    graph.push(
      `${chains[i]}[${w.label}_picture]`,
      `[${w.label}_box]loop=loop=${count - 1}:size=1:start=0,settb=1/${fps},setpts=N,` +
        `fade=t=in:s=0:n=${fade}:alpha=1,fade=t=out:s=${count - fade}:n=${fade}:alpha=1[${w.label}_faded]`,
      `[${w.label}_picture][${w.label}_faded]overlay=${box.x}:${box.y}:format=yuv420:shortest=1,format=yuv420p,setpts=N/(${fps}*TB)[${w.label}]`,
    );
  });

  if (outputs.audio) {
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
  }

  // Parts that follow one another go through one encoder, in order, and are cut apart as it writes.
  const joint = jointParts(outputs);
  const partLabels = written.filter((w) => w.label.startsWith("part")).map((w) => `[${w.label}]`);
  if (joint) graph.push(`${partLabels.join("")}concat=n=${partLabels.length}:v=1:a=0,setpts=N/(${fps}*TB)[parts]`);
  const encoded: { label: string; start: number; end: number; args: string[] }[] = [
    ...written
      .filter((w) => !(joint && w.label.startsWith("part")))
      .map((w) => ({ ...w, args: [...(w.lossless ? losslessVideoArgs(profile) : videoEncodingArgs(profile, threads)), w.file] })),
    ...(joint
      ? [
          {
            label: "parts",
            ...joint,
            args: videoPartsArgs(
              profile,
              outputs.parts.map(({ part }) => part.end - part.start),
              outputs.partsPattern!,
              threads,
            ),
          },
        ]
      : []),
  ];
  // ffmpeg's progress counts the first output's frames: the longest, so it says most of the run.
  const order = encoded.sort((a, b) => b.end - b.start - (a.end - a.start));
  const mapped = [
    ...order.flatMap((w) => ["-map", `[${w.label}]`, ...w.args]),
    ...(outputs.audio ? ["-map", "[audio]", ...pcmAudioArgs(), outputs.audio] : []),
  ];
  return ["-hide_banner", "-v", "error", "-y", ...args, "-filter_complex", graph.join(";"), ...mapped];
}

/** The still's effects for a chain whose first frame is frame `first` of the item. */
function stillEffects(segment: Segment, frame: FrameSize, fps: number, first: number) {
  if (segment.kind === "photo") return `,${cameraMove(segment.motion, segment.frames, first, frame, segment.focus ?? null)}`;
  if (segment.kind === "collage") return `,${cameraMove("gentle-zoom", segment.frames, first, frame)}`;
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
