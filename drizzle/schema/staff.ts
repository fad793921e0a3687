import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** What staff did, as recorded: one word per kind of action. */
export type StaffActionKind =
  | "refund_requested"
  | "promo_code_created"
  | "promo_code_paused"
  | "promo_code_resumed"
  | "reports_dismissed"
  | "event_taken_down"
  | "event_restored"
  | "announcement_created"
  | "announcement_ended"
  | "impersonation_started"
  | "role_changed"
  | "verification_resent"
  | "account_disabled"
  | "account_enabled"
  | "render_retried"
  | "mail_order_retried"
  | "mail_order_refunded";

/** What a staff action was done to. */
export type StaffActionSubject = "payment" | "promo_code" | "event" | "announcement" | "user" | "mail_order";

// Every staff action (money, codes, moderation, announcements, impersonation), with who did it and
// when. Rows are only ever added. An action that must happen once (a refund asked for with a pressed-twice button) carries
// the key it was sent with, and the same key records nothing more.
export const staffActions = pgTable(
  "staff_actions",
  {
    id: uuid().primaryKey().defaultRandom(),
    // Kept when the account goes: the record says what was done, and the e-mail of who did it.
    actorId: uuid().references(() => users.id, { onDelete: "set null" }),
    actorEmail: text().notNull(),
    action: text().$type<StaffActionKind>().notNull(),
    subjectType: text().$type<StaffActionSubject>().notNull(),
    subjectId: uuid().notNull(),
    /** What the action said: an amount and a reason, the code's settings… */
    details: jsonb().$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    idempotencyKey: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("staff_actions_created_idx").on(t.createdAt),
    index("staff_actions_subject_idx").on(t.subjectType, t.subjectId, t.createdAt),
    uniqueIndex("staff_actions_idempotency_key_unique").on(t.idempotencyKey),
  ],
);

export type StaffAction = typeof staffActions.$inferSelect;
