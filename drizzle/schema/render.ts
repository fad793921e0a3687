import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, real, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { events } from "./events";
import { users } from "./users";

/** One rung of a published video's HLS ladder, as its master playlist names it. */
export type LadderRung = {
  /** "360p", "540p", "720p", "1080p": also the prefix of its files. */
  name: string;
  width: number;
  height: number;
  /** Peak and average bits per second over its segments (BANDWIDTH and AVERAGE-BANDWIDTH). */
  bandwidth: number;
  averageBandwidth: number;
  /** RFC 6381 codecs of its video and sound, e.g. "avc1.640028,mp4a.40.2". */
  codecs: string;
};

/** A published version's HLS ladder (docs/decisions/036): where its files are and what it cost. */
export type VideoLadder = {
  /** Storage folder of every file below. */
  folder: string;
  rungs: LadderRung[];
  /** File names in the folder: the master playlist, each rung's playlist, init file and segments. */
  files: string[];
  /** Wall-clock seconds the ladder took to make, beside the render's. */
  seconds: number;
  /**
   * Made from its render's rung pieces: how many the ladder job made and how many it found made
   * ahead. Absent when it was made from the MP4 (an old version, or its pieces were swept).
   */
  rungPieces?: { made: number; reused: number };
};

/** One scene of a theme (spec §3 Theme.scenes): how a run of items is laid out. */
export type ThemeScene = {
  kind: "single" | "collage";
  /** Collage scenes: how many photos share the frame (2–4). */
  photos?: number;
};

// Spec §3 "Theme". Built-in themes have no owner and are public; an organiser's own theme is
// made from one of them and belongs to that organiser. `slug` names the built-in ones in code.
export const themes = pgTable(
  "themes",
  {
    id: uuid().primaryKey().defaultRandom(),
    slug: text().unique(),
    ownerId: uuid().references(() => users.id, { onDelete: "cascade" }),
    basedOnId: uuid(),
    name: text().notNull(),
    introUrl: text().notNull(),
    outroUrl: text().notNull(),
    fontUrl: text().notNull(),
    fontColor: text().notNull(),
    fontSize: integer().notNull(),
    fontLineSpacing: real().notNull(),
    textBoxColor: text().notNull(),
    textBoxScale: real().notNull(),
    isCollage: boolean().notNull().default(false),
    isPublic: boolean().notNull().default(false),
    scenes: jsonb().$type<ThemeScene[]>().notNull().default([]),
    /** Rendering with it needs the premium finish (docs/decisions/018): a showier built-in, or a copy of one. */
    isPremium: boolean().notNull().default(false),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("themes_owner_idx").on(t.ownerId)],
);

export const trackStatus = pgEnum("track_status", ["uploaded", "processing", "ready", "failed"]);

// Spec §3 "Track": a piece of music for the montage. Built-in tracks have no owner; an
// organiser's upload belongs to them. Processing fills duration, loudness and the waveform.
export const tracks = pgTable(
  "tracks",
  {
    id: uuid().primaryKey().defaultRandom(),
    slug: text().unique(),
    ownerId: uuid().references(() => users.id, { onDelete: "cascade" }),
    title: text().notNull(),
    artist: text().notNull().default(""),
    licence: text().notNull().default(""),
    status: trackStatus().notNull().default("uploaded"),
    failureReason: text(),
    originalKey: text(),
    originalName: text().notNull().default(""),
    sizeBytes: bigint({ mode: "number" }).notNull().default(0),
    // Normalised audio the soundtrack reads (48 kHz stereo).
    renditionKey: text(),
    durationSeconds: real(),
    loudnessLufs: real(),
    // Peak levels 0–1 at an even spacing, for drawing the waveform.
    waveform: jsonb().$type<number[]>().notNull().default([]),
    /** Rendering with it needs the premium finish (docs/decisions/018); only built-ins are. */
    isPremium: boolean().notNull().default(false),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tracks_owner_idx").on(t.ownerId)],
);

// The organiser's arrangement choices for an event's montage, one row per event.
export const eventArrangements = pgTable("event_arrangements", {
  eventId: uuid()
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  themeId: uuid().references(() => themes.id, { onDelete: "set null" }),
  trackId: uuid().references(() => tracks.id, { onDelete: "set null" }),
  /** Seconds into the track where the music starts. */
  musicStartSeconds: real().notNull().default(0),
  /** Seconds of fade at the end of the video. */
  musicFadeOutSeconds: real().notNull().default(3),
  /** 0–1: the music's level under photos and silent parts. */
  musicVolume: real().notNull().default(0.8),
  resolution: text().$type<"1080p" | "720p">().notNull().default("1080p"),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const renderJobStatus = pgEnum("render_job_status", ["queued", "running", "succeeded", "failed", "cancelled"]);

// One render of an event's montage. The plan it renders is kept with it, so what was
// rendered can always be told, and a retry after a crash renders the same thing.
export const renderJobs = pgTable(
  "render_jobs",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    requestedById: uuid().references(() => users.id, { onDelete: "set null" }),
    status: renderJobStatus().notNull().default("queued"),
    /** Publish as soon as the render succeeds. */
    publishWhenDone: boolean().notNull().default(false),
    resolution: text().$type<"1080p" | "720p">().notNull().default("1080p"),
    plan: jsonb().$type<unknown>(),
    planHash: text(),
    framesTotal: integer().notNull().default(0),
    framesDone: integer().notNull().default(0),
    /** Pieces (bodies, transitions, soundtrack, join) run by ffmpeg for this job. */
    piecesRendered: integer().notNull().default(0),
    piecesReused: integer().notNull().default(0),
    etaSeconds: integer(),
    outputKey: text(),
    posterKey: text(),
    durationSeconds: real(),
    sizeBytes: bigint({ mode: "number" }),
    error: text(),
    attempts: integer().notNull().default(0),
    /** Written every few seconds while a worker renders; a stale one means the worker died. */
    heartbeatAt: timestamp({ withTimezone: true }),
    cancelRequestedAt: timestamp({ withTimezone: true }),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("render_jobs_event_idx").on(t.eventId, t.createdAt)],
);

// Rendered pieces kept for reuse, keyed by a hash of everything that went into them.
export const renderPieces = pgTable(
  "render_pieces",
  {
    key: text().primaryKey(),
    kind: text().notNull(),
    /** Storage keys of the files of this piece (body, head, tail, audio…). */
    files: jsonb().$type<Record<string, string>>().notNull(),
    frames: integer().notNull(),
    /** The output size it was made at (720p, 1080p). */
    resolution: text(),
    /** Wall-clock seconds its ffmpeg job took for how many output frames (a scene's heads and tails
     * too); recent ones give the render panel its time estimate. Null for a piece stored before. */
    renderSeconds: real(),
    renderedFrames: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Moved on whenever a render looks the piece up; the render-pieces sweep removes old ones. */
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("render_pieces_last_used_idx").on(t.lastUsedAt), index("render_pieces_created_idx").on(t.createdAt)],
);

// Every published version of an event's video. The event's `publishedMedia` points at the
// current one; restoring points it back at an earlier one. Versions are never overwritten.
export const publishedMedia = pgTable(
  "published_media",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    renderJobId: uuid().references(() => renderJobs.id, { onDelete: "set null" }),
    version: integer().notNull(),
    videoKey: text().notNull(),
    posterKey: text(),
    durationSeconds: real(),
    width: integer(),
    height: integer(),
    sizeBytes: bigint({ mode: "number" }),
    publishedById: uuid().references(() => users.id, { onDelete: "set null" }),
    // Made by the video-ladder job right after publishing; null until then (the player plays the MP4).
    ladder: jsonb().$type<VideoLadder>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("published_media_event_version_idx").on(t.eventId, t.version),
    uniqueIndex("published_media_render_job_idx")
      .on(t.renderJobId)
      .where(sql`${t.renderJobId} is not null`),
  ],
);

export type Theme = typeof themes.$inferSelect;
export type Track = typeof tracks.$inferSelect;
export type EventArrangement = typeof eventArrangements.$inferSelect;
export type RenderJob = typeof renderJobs.$inferSelect;
export type RenderPiece = typeof renderPieces.$inferSelect;
export type PublishedMedia = typeof publishedMedia.$inferSelect;
