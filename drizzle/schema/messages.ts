import { index, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

export const outboxChannel = pgEnum("outbox_channel", ["email", "sms"]);

// Where mail and text messages go when no SMTP server or SMS provider is configured,
// so a fresh clone can follow a verification link without any outside service.
export const outboxMessages = pgTable(
  "outbox_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    channel: outboxChannel().notNull(),
    to: text().notNull(),
    subject: text(),
    text: text().notNull(),
    html: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("outbox_messages_created_idx").on(t.createdAt)],
);

export const announcements = pgTable("announcements", {
  id: uuid().primaryKey().defaultRandom(),
  // "promotion" shows green; any other type shows yellow (spec §9).
  type: text().notNull(),
  message: text().notNull(),
  // Where the banner's message leads, if anywhere: a path of the site or an https address.
  link: text(),
  startsAt: timestamp({ withTimezone: true }),
  endsAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const supportMessageKind = pgEnum("support_message_kind", ["feedback", "chat"]);

// Messages from the feedback and chat widgets. The sender is identified by e-mail,
// id and role; the name is always "Anonymous" (spec §6).
export const supportMessages = pgTable(
  "support_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: supportMessageKind().notNull(),
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    email: text(),
    role: text(),
    name: text().notNull().default("Anonymous"),
    message: text().notNull(),
    pageUrl: text(),
    handledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("support_messages_created_idx").on(t.createdAt)],
);

export type OutboxMessage = typeof outboxMessages.$inferSelect;
export type Announcement = typeof announcements.$inferSelect;
export type SupportMessage = typeof supportMessages.$inferSelect;
