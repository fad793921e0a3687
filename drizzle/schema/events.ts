import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

export const eventStatus = pgEnum("event_status", ["active", "closed", "delivered"]);

// Spec §3 "Event". `id` addresses the event in the API, `uuid` in its public page
// (/e/{uuid}), `eventId` is the short code people read out to support.
export const events = pgTable(
  "events",
  {
    id: uuid().primaryKey().defaultRandom(),
    uuid: uuid().notNull().defaultRandom().unique(),
    eventId: text().notNull().unique(),
    creatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    occasion: text().notNull(),
    occasionOther: text(),
    guestbook: boolean().notNull().default(false),
    status: eventStatus().notNull().default("active"),
    // Unguessable keys (256 bits, URL-safe): the recipient's page and the view-only link.
    privateKey: text().notNull().unique(),
    viewKey: text().notNull().unique(),
    prompts: jsonb().$type<string[]>().notNull().default([]),
    publishedMedia: uuid(),
    paid: boolean().notNull().default(false),
    // Started, or checked out, while its organiser was a VIP member: it keeps what the membership
    // includes (the Chorus and its premium finish) after the membership ends (docs/decisions/047).
    includedWithMembershipAt: timestamp({ withTimezone: true }),
    contributorsNotified: boolean().notNull().default(false),
    viaEmail: boolean().notNull().default(false),
    viaSms: boolean().notNull().default(false),
    title: text().notNull().default(""),
    message: text().notNull().default(""),
    // Written by the recipient from their private page.
    thankYouMessage: text().notNull().default(""),
    deadline: timestamp({ withTimezone: true }).notNull(),
    deliveryAt: timestamp({ withTimezone: true }),
    timeZone: text().notNull().default("UTC"),
    analyticsClientId: text(),
    openedAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
    // Taken down by staff after a report: unavailable to everyone but staff until restored.
    takenDownAt: timestamp({ withTimezone: true }),
    takenDownReason: text(),
  },
  (t) => [index("events_creator_idx").on(t.creatorId), index("events_deadline_idx").on(t.deadline)],
);

export const recipients = pgTable(
  "recipients",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    firstName: text().notNull(),
    lastName: text().notNull().default(""),
    email: text(),
    phone: text(),
    position: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("recipients_event_idx").on(t.eventId)],
);

export const rsvpStatus = pgEnum("rsvp_status", ["pending", "invited", "opened", "contributed", "declined"]);

// An invitee of an event: how to reach them, on which channels, and how far they got.
export const rsvps = pgTable(
  "rsvps",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    name: text().notNull(),
    email: text(),
    phone: text(),
    viaEmail: boolean().notNull().default(true),
    viaSms: boolean().notNull().default(false),
    status: rsvpStatus().notNull().default("pending"),
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    // Hash of the token in this invitee's personal link (tells us who opened it).
    inviteTokenHash: text().notNull().unique(),
    inviteSentAt: timestamp({ withTimezone: true }),
    inviteOpenedAt: timestamp({ withTimezone: true }),
    contributedAt: timestamp({ withTimezone: true }),
    unsubscribedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("rsvps_event_idx").on(t.eventId),
    uniqueIndex("rsvps_event_email_unique").on(t.eventId, sql`lower(${t.email})`),
    uniqueIndex("rsvps_event_phone_unique").on(t.eventId, t.phone),
  ],
);

export const notifications = pgTable(
  "notifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: uuid().references(() => events.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    title: text().notNull(),
    body: text().notNull().default(""),
    url: text(),
    seenAt: timestamp({ withTimezone: true }),
    readAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.createdAt)],
);

export type EventReportResolution = "dismissed" | "taken_down";

export const eventReports = pgTable(
  "event_reports",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    reporterId: uuid().references(() => users.id, { onDelete: "set null" }),
    reporterIp: text(),
    reason: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Open while null; staff close every open report of a Chorus at once, by dismissing them or
    // by taking the Chorus down.
    resolvedAt: timestamp({ withTimezone: true }),
    resolution: text().$type<EventReportResolution>(),
    resolvedById: uuid().references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("event_reports_event_idx").on(t.eventId),
    index("event_reports_open_idx")
      .on(t.createdAt)
      .where(sql`${t.resolvedAt} is null`),
  ],
);

// One row per message we mean to send, keyed by what it is about: a retried job
// finds the row already sent and does not send again.
export const messageDeliveries = pgTable("message_deliveries", {
  key: text().primaryKey(),
  channel: text().notNull(),
  to: text().notNull(),
  status: text().notNull().default("pending"),
  attempts: integer().notNull().default(0),
  lastError: text(),
  sentAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type Event = typeof events.$inferSelect;
export type Recipient = typeof recipients.$inferSelect;
export type Rsvp = typeof rsvps.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
