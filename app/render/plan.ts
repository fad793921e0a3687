// Render planning (ARCHITECTURE.md "Media and render pipeline", RENDERING.md): the event, its
// theme, its ordered contributions and its music become a list of segments on a frame timeline.
// Pure: no I/O, no ffmpeg. Everything a piece needs to be rendered is in its segment, and each
// piece carries a key that hashes exactly those inputs, so a change re-renders only what it touched.

import { sha256Hex } from "./hash";

export const FPS = 30;

export type Resolution = "1080p" | "720p";

export interface OutputProfile {
  resolution: Resolution;
  width: number;
  height: number;
  fps: number;
  /** Bumped whenever the encoder settings of pieces change, so old pieces are never joined to new ones. */
  encoderVersion: number;
}

export const PROFILES: Record<Resolution, OutputProfile> = {
  "1080p": { resolution: "1080p", width: 1920, height: 1080, fps: FPS, encoderVersion: 1 },
  "720p": { resolution: "720p", width: 1280, height: 720, fps: FPS, encoderVersion: 1 },
};

/** The theme's look as the renderer needs it (spec §3 Theme). */
export interface ThemeStyle {
  introUrl: string;
  outroUrl: string;
  fontUrl: string;
  fontColor: string;
  fontSize: number;
  fontLineSpacing: number;
  textBoxColor: string;
  textBoxScale: number;
}

export interface PlanTheme extends ThemeStyle {
  id: string;
  isCollage: boolean;
  scenes: { kind: "single" | "collage"; photos?: number }[];
}

export interface PlanMedia {
  id: string;
  kind: "photo" | "video";
  status: "uploaded" | "processing" | "ready" | "failed";
  renditionKey: string | null;
  durationSeconds: number | null;
  trimStart: number;
  trimEnd: number | null;
  caption: string;
  contributorName: string;
  hidden: boolean;
  archived: boolean;
  position: number;
  hasAudio: boolean;
}

export interface PlanTrack {
  id: string;
  renditionKey: string;
  durationSeconds: number;
  startSeconds: number;
  fadeOutSeconds: number;
  /** 0–1. */
  volume: number;
}

export interface PlanInput {
  /** "Ana's birthday" style heading and the line under it, for the intro card. */
  intro: { heading: string; subheading: string };
  outro: { heading: string; subheading: string };
  theme: PlanTheme;
  media: PlanMedia[];
  track: PlanTrack | null;
  resolution: Resolution;
  timing?: Partial<Timing>;
}

export interface Timing {
  titleSeconds: number;
  photoSeconds: number;
  collageSeconds: number;
  transitionSeconds: number;
  /** Clips shorter than this are held on their last frame up to it. */
  minClipSeconds: number;
}

export const DEFAULT_TIMING: Timing = {
  titleSeconds: 3.5,
  photoSeconds: 5,
  collageSeconds: 6,
  transitionSeconds: 0.5,
  minClipSeconds: 1.5,
};

export interface TextBox {
  name: string;
  message: string;
}

/** Slow camera moves for stills, chosen by position so neighbours differ. */
export const PHOTO_MOTIONS = ["zoom-in", "zoom-out", "pan-left", "pan-right"] as const;
export type PhotoMotion = (typeof PHOTO_MOTIONS)[number];

interface SegmentBase {
  /** Hash of everything the segment's pieces are rendered from. */
  key: string;
  index: number;
  /** First frame of the segment on the timeline (its head overlaps the previous segment's tail). */
  startFrame: number;
  /** Frames of the whole item, head and tail included. */
  frames: number;
  /** Frames shared with the previous segment in a crossfade (0 for the first). */
  headFrames: number;
  /** Frames shared with the next segment (0 for the last). */
  tailFrames: number;
}

export type Segment =
  | (SegmentBase & { kind: "title"; role: "intro" | "outro"; heading: string; subheading: string; backgroundUrl: string; style: ThemeStyle })
  | (SegmentBase & {
      kind: "clip";
      mediaId: string;
      source: string;
      /** Seconds into the rendition where the clip starts (its trim in). */
      inSeconds: number;
      /** Frames of picture the source gives from `inSeconds`; past that the last frame is held. */
      sourceFrames: number;
      hasAudio: boolean;
      textBox: TextBox | null;
      style: ThemeStyle;
    })
  | (SegmentBase & { kind: "photo"; mediaId: string; source: string; motion: PhotoMotion; textBox: TextBox | null; style: ThemeStyle })
  | (SegmentBase & { kind: "collage"; mediaIds: string[]; sources: string[]; textBox: TextBox | null; style: ThemeStyle });

export type SegmentKind = Segment["kind"];

export interface Transition {
  key: string;
  index: number;
  /** Index of the segment whose tail fades out. */
  from: number;
  startFrame: number;
  frames: number;
}

export interface MusicPlan {
  trackId: string;
  source: string;
  startSeconds: number;
  fadeOutSeconds: number;
  volume: number;
  /** Seconds of music available from startSeconds; the soundtrack loops the track when shorter. */
  availableSeconds: number;
}

export interface RenderPlan {
  profile: OutputProfile;
  segments: Segment[];
  transitions: Transition[];
  totalFrames: number;
  durationSeconds: number;
  music: MusicPlan | null;
  /** Items left out and why (not ready yet, failed), for the organiser. */
  skipped: { mediaId: string; reason: "not-ready" | "failed" | "no-rendition" }[];
  /** Hash of the whole plan: two renders of equal plans give the same video. */
  hash: string;
}

const framesOf = (seconds: number, fps: number) => Math.max(1, Math.round(seconds * fps));

/** The media that go into the video, in order: visible, not archived, ready. */
export function orderedItems(media: readonly PlanMedia[]) {
  const included: PlanMedia[] = [];
  const skipped: RenderPlan["skipped"] = [];
  const sorted = [...media].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  for (const item of sorted) {
    if (item.hidden || item.archived) continue;
    if (item.status === "failed") skipped.push({ mediaId: item.id, reason: "failed" });
    else if (item.status !== "ready") skipped.push({ mediaId: item.id, reason: "not-ready" });
    else if (!item.renditionKey) skipped.push({ mediaId: item.id, reason: "no-rendition" });
    else included.push(item);
  }
  return { included, skipped };
}

const textBoxOf = (item: PlanMedia): TextBox | null => {
  const name = item.contributorName.trim();
  const message = item.caption.trim();
  return name || message ? { name, message } : null;
};

/** "Ana", "Ana & Bo", "Ana, Bo & Cy" — for a collage's shared box. */
export function joinNames(names: readonly string[]) {
  const unique = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (unique.length <= 1) return unique[0] ?? "";
  return `${unique.slice(0, -1).join(", ")} & ${unique[unique.length - 1]}`;
}

type Draft =
  | { kind: "title"; role: "intro" | "outro"; heading: string; subheading: string; seconds: number }
  | { kind: "clip"; item: PlanMedia; seconds: number; inSeconds: number; sourceSeconds: number }
  | { kind: "photo"; item: PlanMedia; seconds: number }
  | { kind: "collage"; items: PlanMedia[]; seconds: number };

/**
 * Groups the ordered items into scenes. Without collage, one item per scene. With a collage
 * theme, the theme's scene pattern repeats: a collage scene takes the next run of photos (at
 * least two, at most its size); clips always stand alone and break a run.
 */
function scenesOf(items: PlanMedia[], theme: PlanTheme, timing: Timing): Draft[] {
  const drafts: Draft[] = [];
  const pattern = theme.isCollage && theme.scenes.some((s) => s.kind === "collage") ? theme.scenes : [{ kind: "single" as const }];
  let sceneIndex = 0;
  for (let i = 0; i < items.length; ) {
    const item = items[i]!;
    if (item.kind === "video") {
      const duration = item.durationSeconds ?? 0;
      const inSeconds = Math.min(Math.max(0, item.trimStart), Math.max(0, duration - 1 / FPS));
      const outSeconds = item.trimEnd === null ? duration : Math.min(duration, Math.max(item.trimEnd, inSeconds + 1 / FPS));
      const sourceSeconds = Math.max(1 / FPS, outSeconds - inSeconds);
      drafts.push({ kind: "clip", item, inSeconds, sourceSeconds, seconds: Math.max(sourceSeconds, timing.minClipSeconds) });
      i += 1;
      continue;
    }
    const scene = pattern[sceneIndex % pattern.length]!;
    sceneIndex += 1;
    if (scene.kind === "collage") {
      const size = Math.min(4, Math.max(2, scene.photos ?? 3));
      const run: PlanMedia[] = [];
      while (run.length < size && i + run.length < items.length && items[i + run.length]!.kind === "photo") run.push(items[i + run.length]!);
      if (run.length >= 2) {
        drafts.push({ kind: "collage", items: run, seconds: timing.collageSeconds });
        i += run.length;
        continue;
      }
    }
    drafts.push({ kind: "photo", item, seconds: timing.photoSeconds });
    i += 1;
  }
  return drafts;
}

const styleOf = (theme: PlanTheme): ThemeStyle => ({
  introUrl: theme.introUrl,
  outroUrl: theme.outroUrl,
  fontUrl: theme.fontUrl,
  fontColor: theme.fontColor,
  fontSize: theme.fontSize,
  fontLineSpacing: theme.fontLineSpacing,
  textBoxColor: theme.textBoxColor,
  textBoxScale: theme.textBoxScale,
});

/** Builds the render plan. Throws nothing: an event with no usable media still gets intro and outro. */
export function planRender(input: PlanInput): RenderPlan {
  const timing = { ...DEFAULT_TIMING, ...input.timing };
  const profile = PROFILES[input.resolution];
  const fps = profile.fps;
  const style = styleOf(input.theme);
  const { included, skipped } = orderedItems(input.media);

  const drafts: Draft[] = [
    { kind: "title", role: "intro", ...input.intro, seconds: timing.titleSeconds },
    ...scenesOf(included, input.theme, timing),
    { kind: "title", role: "outro", ...input.outro, seconds: timing.titleSeconds },
  ];
  const lengths = drafts.map((d) => framesOf(d.seconds, fps));
  const wanted = framesOf(timing.transitionSeconds, fps);
  // A crossfade never takes more than a third of either neighbour, so every body keeps frames.
  const overlaps = lengths.slice(1).map((next, i) => Math.max(0, Math.min(wanted, Math.floor(Math.min(lengths[i]!, next) / 3))));

  const segments: Segment[] = [];
  let cursor = 0;
  drafts.forEach((draft, index) => {
    const frames = lengths[index]!;
    const headFrames = index === 0 ? 0 : overlaps[index - 1]!;
    const tailFrames = index === drafts.length - 1 ? 0 : overlaps[index]!;
    const startFrame = cursor - headFrames;
    cursor = startFrame + frames;
    const base = { index, startFrame, frames, headFrames, tailFrames };
    // The key covers what the pieces are made of: content, look, length, and where the crossfades cut.
    const keyOf = (content: unknown) => sha256Hex(JSON.stringify({ content, style, frames, headFrames, tailFrames, profile }));
    if (draft.kind === "title") {
      const backgroundUrl = draft.role === "intro" ? style.introUrl : style.outroUrl;
      const content = { kind: "title", role: draft.role, heading: draft.heading, subheading: draft.subheading, backgroundUrl };
      segments.push({ ...base, ...content, kind: "title", key: keyOf(content), style });
    } else if (draft.kind === "clip") {
      const content = {
        kind: "clip" as const,
        mediaId: draft.item.id,
        source: draft.item.renditionKey!,
        inSeconds: draft.inSeconds,
        sourceFrames: framesOf(draft.sourceSeconds, fps),
        hasAudio: draft.item.hasAudio,
        textBox: textBoxOf(draft.item),
      };
      segments.push({ ...base, ...content, key: keyOf(content), style });
    } else if (draft.kind === "photo") {
      const content = {
        kind: "photo" as const,
        mediaId: draft.item.id,
        source: draft.item.renditionKey!,
        motion: PHOTO_MOTIONS[index % PHOTO_MOTIONS.length]!,
        textBox: textBoxOf(draft.item),
      };
      segments.push({ ...base, ...content, key: keyOf(content), style });
    } else {
      const names = joinNames(draft.items.map((i) => i.contributorName));
      const content = {
        kind: "collage" as const,
        mediaIds: draft.items.map((i) => i.id),
        sources: draft.items.map((i) => i.renditionKey!),
        textBox: names ? { name: names, message: "" } : null,
      };
      segments.push({ ...base, ...content, key: keyOf(content), style });
    }
  });

  const transitions: Transition[] = overlaps.flatMap((frames, i) => {
    if (frames === 0) return [];
    const next = segments[i + 1]!;
    return [{ index: i, from: i, startFrame: next.startFrame, frames, key: sha256Hex(JSON.stringify({ from: segments[i]!.key, to: next.key, frames })) }];
  });

  const totalFrames = cursor;
  const music: MusicPlan | null = input.track
    ? {
        trackId: input.track.id,
        source: input.track.renditionKey,
        startSeconds: Math.max(0, Math.min(input.track.startSeconds, Math.max(0, input.track.durationSeconds - 1))),
        fadeOutSeconds: Math.max(0, Math.min(input.track.fadeOutSeconds, totalFrames / fps)),
        volume: Math.max(0, Math.min(1, input.track.volume)),
        availableSeconds: Math.max(0, input.track.durationSeconds - input.track.startSeconds),
      }
    : null;
  const hash = sha256Hex(JSON.stringify({ segments: segments.map((s) => s.key), transitions: transitions.map((t) => t.key), music, profile }));
  return { profile, segments, transitions, totalFrames, durationSeconds: totalFrames / fps, music, skipped, hash };
}

/** Frames of a segment that are its own (not shared with a neighbour in a crossfade). */
export const bodyFrames = (segment: Segment) => segment.frames - segment.headFrames - segment.tailFrames;
