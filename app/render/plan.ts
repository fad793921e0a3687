// Render planning (docs/architecture.md "Media and render pipeline", docs/rendering.md): the event, its
// theme, its ordered contributions and its music become a list of segments on a frame timeline.
// Pure: no I/O, no ffmpeg. Everything a piece needs to be rendered is in its segment, and each
// piece carries a key that hashes exactly those inputs, so a change re-renders only what it touched.

import { photoMotionFor } from "./camera";
import { sha256Hex } from "./hash";
import {
  DEFAULT_TIMING,
  FPS,
  PROFILES,
  type MusicPlan,
  type PlanInput,
  type PlanMedia,
  type PhotoFocus,
  type PlanTheme,
  type RenderPlan,
  type ScenePart,
  type Segment,
  type TextBox,
  type ThemeStyle,
  type Timing,
  type Transition,
} from "./plan-types";

export * from "./plan-types";
export * from "./plan-pieces";

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
  for (let i = 0; i < items.length;) {
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
      while (run.length < size && i + run.length < items.length && items[i + run.length]!.kind === "photo")
        run.push(items[i + run.length]!);
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

/**
 * A photo's subject to a thousandth of the picture (two pixels at 1080p): finer would change the
 * scene's keys for nothing anyone could see.
 */
function focusOf(item: PlanMedia): PhotoFocus | null {
  if (!item.focus) return null;
  const share = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
  return { x: share(item.focus.x), y: share(item.focus.y) };
}

/** What a clip, photo or collage shows, its text box aside. */
function sceneContent(draft: Exclude<Draft, { kind: "title" }>, index: number, fps: number) {
  if (draft.kind === "clip") {
    const content = {
      kind: "clip" as const,
      mediaId: draft.item.id,
      source: draft.item.renditionKey!,
      inSeconds: draft.inSeconds,
      sourceFrames: framesOf(draft.sourceSeconds, fps),
      hasAudio: draft.item.hasAudio,
    };
    return { content, textBox: textBoxOf(draft.item) };
  }
  if (draft.kind === "photo") {
    const focus = focusOf(draft.item);
    const content = {
      kind: "photo" as const,
      mediaId: draft.item.id,
      source: draft.item.renditionKey!,
      motion: photoMotionFor(index, focus),
      // In the scene's keys only when known: a photo never looked at keeps the pieces it has.
      ...(focus ? { focus } : {}),
    };
    return { content, textBox: textBoxOf(draft.item) };
  }
  const names = joinNames(draft.items.map((i) => i.contributorName));
  const content = { kind: "collage" as const, mediaIds: draft.items.map((i) => i.id), sources: draft.items.map((i) => i.renditionKey!) };
  return { content, textBox: names ? { name: names, message: "" } : null };
}

/** The shortest and longest a text box stays on screen, its fades included. */
export const CAPTION_SECONDS = { least: 3, most: 6 } as const;

/**
 * Seconds the text box stays: about a second to find it, then three words a second (what subtitles
 * are timed for), between 3 s (a name and a few words) and 6 s (a long message).
 */
export function captionSeconds(box: TextBox) {
  const words = `${box.name} ${box.message}`.split(/\s+/).filter(Boolean).length;
  return Math.min(CAPTION_SECONDS.most, Math.max(CAPTION_SECONDS.least, 1 + words / 3));
}

/** Less than this of the picture alone after the box reads as a flicker: the box stays instead. */
const LEAST_PLAIN_SECONDS = 1;

/**
 * A scene's own frames `[from, to)` as parts: the text box from the end of the incoming crossfade
 * for its reading time, then the picture alone. A scene too short for both keeps the box for all of
 * its own frames; one without words is one plain part.
 */
function partsOf(from: number, to: number, box: TextBox | null, fps: number): Omit<ScenePart, "key">[] {
  if (!box) return [{ kind: "plain", start: from, end: to }];
  const captioned = framesOf(captionSeconds(box), fps);
  if (to - from - captioned < framesOf(LEAST_PLAIN_SECONDS, fps)) return [{ kind: "caption", start: from, end: to }];
  return [
    { kind: "caption", start: from, end: from + captioned },
    { kind: "plain", start: from + captioned, end: to },
  ];
}

const styleOf = ({ id: _id, isCollage: _collage, scenes: _scenes, ...style }: PlanTheme): ThemeStyle => style;

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
    const place = { index, startFrame, frames, headFrames, tailFrames };
    const shape = { frames, headFrames, tailFrames, profile };
    if (draft.kind === "title") {
      // A title card is all theme: its key holds the style, and so does its one part's.
      const backgroundUrl = draft.role === "intro" ? style.introUrl : style.outroUrl;
      const content = { kind: "title" as const, role: draft.role, heading: draft.heading, subheading: draft.subheading, backgroundUrl };
      const key = sha256Hex(JSON.stringify({ content, style, ...shape }));
      const card = { kind: "card" as const, start: headFrames, end: frames - tailFrames };
      segments.push({ ...place, ...content, key, style, parts: [{ ...card, key: sha256Hex(JSON.stringify({ scene: key, ...card })) }] });
      return;
    }
    const { content, textBox } = sceneContent(draft, index, fps);
    // What the picture is made of, without the words or the theme: the head, the tail, the sound
    // and the plain part are keyed by it alone, so a theme or caption change reuses them.
    const picture = { ...content, ...shape };
    const key = sha256Hex(JSON.stringify({ piece: "scene", ...picture }));
    const parts = partsOf(headFrames, frames - tailFrames, textBox, fps).map((part) => ({
      ...part,
      key: sha256Hex(JSON.stringify({ piece: part.kind, ...picture, ...part, ...(part.kind === "caption" ? { textBox, style } : {}) })),
    }));
    segments.push({ ...place, ...content, key, textBox, style, parts } as Segment);
  });

  const transitions: Transition[] = overlaps.flatMap((frames, i) => {
    if (frames === 0) return [];
    const next = segments[i + 1]!;
    return [
      {
        index: i,
        from: i,
        startFrame: next.startFrame,
        frames,
        key: sha256Hex(JSON.stringify({ from: segments[i]!.key, to: next.key, frames })),
      },
    ];
  });

  const totalFrames = cursor;
  const music = input.track ? planMusic(input.track, totalFrames / fps) : null;
  const soundtrackKey = sha256Hex(JSON.stringify({ version: SOUNDTRACK_VERSION, fps, totalFrames, music, sound: segments.map(soundOf) }));
  const hash = sha256Hex(
    JSON.stringify({
      segments: segments.map((s) => [s.key, ...s.parts.map((p) => p.key)]),
      transitions: transitions.map((t) => t.key),
      music,
      profile,
    }),
  );
  return { profile, segments, transitions, totalFrames, durationSeconds: totalFrames / fps, music, soundtrackKey, skipped, hash };
}

/** Bumped whenever the soundtrack's mixing changes, so stored soundtracks are made again. */
const SOUNDTRACK_VERSION = 2;

/** The music within its bounds: it starts at least a second before the track ends. */
function planMusic(track: NonNullable<PlanInput["track"]>, videoSeconds: number): MusicPlan {
  const startSeconds = Math.max(0, Math.min(track.startSeconds, Math.max(0, track.durationSeconds - 1)));
  return {
    trackId: track.id,
    source: track.renditionKey,
    startSeconds,
    fadeOutSeconds: Math.max(0, Math.min(track.fadeOutSeconds, videoSeconds)),
    volume: Math.max(0, Math.min(1, track.volume)),
    availableSeconds: Math.max(0, track.durationSeconds - startSeconds),
  };
}

/** What of a segment its sound depends on: the clip's own sound and where it sits, nothing of its look. */
function soundOf(segment: Segment) {
  const place = { startFrame: segment.startFrame, frames: segment.frames, headFrames: segment.headFrames, tailFrames: segment.tailFrames };
  if (segment.kind !== "clip" || !segment.hasAudio) return place;
  return { ...place, source: segment.source, inSeconds: segment.inSeconds, sourceFrames: segment.sourceFrames };
}
