import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { events, rsvps } from "./events";
import { users } from "./users";

export const mediaKind = pgEnum("media_kind", ["photo", "video"]);
export const mediaPurpose = pgEnum("media_purpose", ["contribution", "thank_you"]);
export const mediaStatus = pgEnum("media_status", ["uploaded", "processing", "ready", "failed"]);

// Spec §3 "Media": one photo or clip added to an event. The original is stored untouched
// and kept; what renders use is the normalised rendition made from it.
export const media = pgTable(
  "media",
  {
    id: uuid().primaryKey().defaultRandom(),
    mediaUuid: uuid().notNull().defaultRandom().unique(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    purpose: mediaPurpose().notNull().default("contribution"),
    kind: mediaKind(),
    status: mediaStatus().notNull().default("uploaded"),
    failureReason: text(),
    contributorName: text().notNull().default(""),
    caption: text().notNull().default(""),
    position: integer().notNull().default(0),
    trimStart: real().notNull().default(0),
    trimEnd: real(),
    // The trim processing found for a clip: where its dead air (black or frozen picture with no
    // speech) ends at the start and begins at the end (docs/decisions/053). Null until a clip is
    // analysed; an end of null keeps the clip to its end. It is the clip's trim until the
    // organiser sets one (trimChosen), whose choice then stays, processed again or not.
    autoTrimStart: real(),
    autoTrimEnd: real(),
    trimChosen: boolean().notNull().default(false),
    // What processing noticed about a clip that may disappoint ("dark", "quiet", "short",
    // "shaky"; app/domain/clip-advice.ts): said on the cards, never a reason to refuse it.
    advice: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // Where the subject of a photo's rendition is (shares of its width and height, sharp's
    // attention strategy): its camera move ends on it. Null before it was looked for.
    focusX: real(),
    focusY: real(),
    hidden: boolean().notNull().default(false),
    archivedAt: timestamp({ withTimezone: true }),
    uploaderId: uuid().references(() => users.id, { onDelete: "set null" }),
    rsvpId: uuid().references(() => rsvps.id, { onDelete: "set null" }),
    // Hash of the contributor's own upload token (kept in their browser): their key to act on it.
    uploadTokenHash: text(),
    uploadId: text().unique(),
    originalKey: text().notNull(),
    originalName: text().notNull().default(""),
    mimeType: text().notNull().default("application/octet-stream"),
    sizeBytes: bigint({ mode: "number" }).notNull().default(0),
    width: integer(),
    height: integer(),
    durationSeconds: real(),
    rotation: integer().notNull().default(0),
    hasAudio: boolean().notNull().default(false),
    renditionKey: text(),
    posterKey: text(),
    thumbnails: jsonb().$type<Record<string, string>>().notNull().default({}),
    // The version renders use (an approved upscale or an edit), or null for the original.
    activeVersionId: uuid(),
    approved: boolean(),
    duplicatedFrom: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("media_event_idx").on(t.eventId, t.position),
    index("media_event_live_idx")
      .on(t.eventId)
      .where(sql`${t.archivedAt} is null`),
  ],
);

export const mediaVersionKind = pgEnum("media_version_kind", ["upscale", "edit"]);
export const mediaVersionStatus = pgEnum("media_version_status", ["pending_review", "active", "rejected", "replaced"]);

// Photo versions made from the original (an upscale awaiting review, an edit). The
// original is never touched; reverting just points the media back at it.
export const mediaVersions = pgTable(
  "media_versions",
  {
    id: uuid().primaryKey().defaultRandom(),
    mediaId: uuid()
      .notNull()
      .references(() => media.id, { onDelete: "cascade" }),
    kind: mediaVersionKind().notNull(),
    status: mediaVersionStatus().notNull(),
    key: text().notNull(),
    edits: jsonb().$type<Record<string, unknown>>(),
    width: integer(),
    height: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("media_versions_media_idx").on(t.mediaId)],
);

export type Media = typeof media.$inferSelect;
export type MediaVersion = typeof mediaVersions.$inferSelect;

// A guestbook message: words without a file. Events in guestbook mode collect these beside
// photos and clips (spec §2.4 guestbooks).
export const guestbookEntries = pgTable(
  "guestbook_entries",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    name: text().notNull(),
    message: text().notNull(),
    rsvpId: uuid().references(() => rsvps.id, { onDelete: "set null" }),
    uploaderId: uuid().references(() => users.id, { onDelete: "set null" }),
    hidden: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("guestbook_entries_event_idx").on(t.eventId, t.createdAt)],
);

export type GuestbookEntry = typeof guestbookEntries.$inferSelect;
