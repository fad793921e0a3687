import { sql } from "drizzle-orm";
import { boolean, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const userRole = pgEnum("user_role", ["user", "editor", "admin"]);

export const users = pgTable(
  "users",
  {
    id: uuid().primaryKey().defaultRandom(),
    // Stored lower-cased and trimmed; the unique index makes duplicates impossible.
    email: text().notNull(),
    passwordHash: text().notNull(),
    role: userRole().notNull().default("user"),
    subscriptionId: text(),
    hasLegacyB2bSubscription: boolean("has_legacy_b2b_subscription").notNull().default(false),
    // The payment service's customer for this account, once they have paid or subscribed.
    paymentCustomerId: text(),
    // The membership as the payment service last told us: its status ("active", "past_due",
    // "canceled"…), plan, when the period ends, and the moment of the event that said so (an
    // older event arriving late changes nothing).
    membershipStatus: text(),
    membershipPlan: text(),
    membershipRenewsAt: timestamp({ withTimezone: true }),
    // Set while a membership is cancelled at its period's end: it stays until then, and does not renew.
    membershipEndsAt: timestamp({ withTimezone: true }),
    membershipChangedAt: timestamp({ withTimezone: true }),
    emailVerifiedAt: timestamp({ withTimezone: true }),
    // Set while staff have disabled the account: it cannot log in and its sessions count for nothing.
    disabledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`)],
);

export const userProfiles = pgTable(
  "user_profiles",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    firstName: text().notNull().default(""),
    lastName: text().notNull().default(""),
    phone: text(),
    timeZone: text(),
    marketingOptIn: boolean().notNull().default(false),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("user_profiles_user_unique").on(t.userId)],
);

export type User = typeof users.$inferSelect;
export type UserProfile = typeof userProfiles.$inferSelect;
export type UserRole = (typeof userRole.enumValues)[number];
