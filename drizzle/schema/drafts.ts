import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// "Start a Chorus" drafts, addressed by a random id in their own cookie. They outlive the
// log-in that starts a fresh session, and hold more than a cookie could (a long message
// and ten questions).
export const startDrafts = pgTable(
  "start_drafts",
  {
    id: text().primaryKey(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("start_drafts_expires_idx").on(t.expiresAt)],
);
