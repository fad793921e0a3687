import { index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

// The cookie carries only the session id; what the session knows lives here, so any
// web process can read it and a log-out elsewhere takes effect everywhere.
export const sessions = pgTable(
  "sessions",
  {
    id: text().primaryKey(),
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    // Set while an admin acts as another user: the admin's own id, to return to.
    impersonatorId: uuid().references(() => users.id, { onDelete: "cascade" }),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const authTokenKind = pgEnum("auth_token_kind", ["verify_email", "reset_password", "change_email"]);

// One-time tokens sent by e-mail. Only a SHA-256 of the token is stored.
export const authTokens = pgTable(
  "auth_tokens",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: authTokenKind().notNull(),
    tokenHash: text().notNull().unique(),
    // For change_email: the address that becomes the login once confirmed.
    newEmail: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auth_tokens_user_kind_idx").on(t.userId, t.kind)],
);

// Fixed-window counters shared by every web process (log-in, reset, sign-up...).
export const rateLimits = pgTable("rate_limits", {
  key: text().primaryKey(),
  count: integer().notNull(),
  resetAt: timestamp({ withTimezone: true }).notNull(),
});

export type Session = typeof sessions.$inferSelect;
export type AuthTokenKind = (typeof authTokenKind.enumValues)[number];
