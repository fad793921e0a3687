// The render plan's vocabulary: output profiles, what a plan is made from, and the segments,
// crossfades and music it is made of. Built by plan.ts, rendered by run.server.ts and pieces/.

import type { ThemeLook } from "~/domain/built-in-themes";

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
  "1080p": { resolution: "1080p", width: 1920, height: 1080, fps: FPS, encoderVersion: 8 },
  "720p": { resolution: "720p", width: 1280, height: 720, fps: FPS, encoderVersion: 8 },
};

/** The theme's look as a scene's pieces need it (spec §3 Theme): everything but how scenes are grouped. */
export type ThemeStyle = Omit<ThemeLook, "isCollage" | "scenes">;

export interface PlanTheme extends ThemeLook {
  id: string;
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
  /** Where a photo's subject is in its rendition (docs/decisions/053); null or absent when not known. */
  focus?: PhotoFocus | null;
}

/** A point of a photo's rendition, as shares of its width and height. */
export interface PhotoFocus {
  x: number;
  y: number;
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

/**
 * A stretch of a segment's own frames (between its head and its tail), stored as a piece of its
 * own: the stretch with the text box ("caption"), the picture alone after it ("plain"), or a title
 * card's ("card"). A part starts with a key frame, so parts join without re-encoding.
 */
export interface ScenePart {
  kind: "caption" | "plain" | "card";
  /** Hash of what this stretch is made from: the caption's words and the theme's style only for "caption" and "card". */
  key: string;
  /** First frame of the part within its segment. */
  start: number;
  /** The frame after its last. */
  end: number;
}

interface SegmentBase {
  /**
   * Hash of what the segment's head, tail and sound are made from. For a clip, photo or collage:
   * its source, trim, camera move, frame counts and output profile, never its words or the
   * theme's style; for a title card, all of it (a card is all theme).
   */
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
  /** Its own frames, in order, from `headFrames` to `frames - tailFrames`. */
  parts: ScenePart[];
}

export type Segment =
  | (SegmentBase & {
      kind: "title";
      role: "intro" | "outro";
      heading: string;
      subheading: string;
      backgroundUrl: string;
      style: ThemeStyle;
    })
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
  | (SegmentBase & {
      kind: "photo";
      mediaId: string;
      source: string;
      motion: PhotoMotion;
      /** Its subject, which the camera move ends on; absent when not known (then the move is centred). */
      focus?: PhotoFocus;
      textBox: TextBox | null;
      style: ThemeStyle;
    })
  | (SegmentBase & { kind: "collage"; mediaIds: string[]; sources: string[]; textBox: TextBox | null; style: ThemeStyle });

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
  /**
   * Hash of everything the soundtrack is made from: each segment's sound and place on the
   * timeline, and the music. Captions, the theme and the frame size are not in it, so changing
   * them reuses the soundtrack.
   */
  soundtrackKey: string;
  /** Items left out and why (not ready yet, failed), for the organiser. */
  skipped: { mediaId: string; reason: "not-ready" | "failed" | "no-rendition" }[];
  /** Hash of the whole plan: two renders of equal plans give the same video. */
  hash: string;
}
