import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { PostalAddress } from "../../app/domain/postal-address";
import { events } from "./events";
import { users } from "./users";

// Printed postcards (spec §7.2 "Postcards", docs/decisions/030-postcards.md): the organiser designs a
// card, pays for it, and a print-and-mail service prints and posts it. Amounts are integer minor units.

/**
 * draft: editable; checkout: locked, waiting for its payment; paid: the payment webhook recorded it and
 * the send job is queued; sent: the print service took it; failed: it never will be (refund follows);
 * refunded: the payment went back. A checkout whose payment page expired unpaid goes back to draft.
 */
export const postcardStatus = pgEnum("postcard_status", ["draft", "checkout", "paid", "sent", "failed", "refunded"]);

export const postcards = pgTable(
  "postcards",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    creatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    templateId: text().notNull(),
    message: text().notNull().default(""),
    /** Where it goes; null until the organiser gives it. */
    address: jsonb().$type<PostalAddress>(),
    status: postcardStatus().notNull().default("draft"),
    /** The price when checkout started. */
    amount: integer().notNull(),
    currency: text().notNull(),
    paymentProvider: text(),
    checkoutSessionId: text(),
    /** How many payment pages expired unpaid: each new one is keyed by it, so paying again opens a new page. */
    checkoutAttempts: integer().notNull().default(0),
    paymentIntentId: text(),
    /** The print service that took it, its id there, and the last state it reported. */
    printProvider: text(),
    printId: text(),
    mailingStatus: text(),
    /** The day (YYYY-MM-DD) the service expects it delivered, and the page that says where it is, when it gives them. */
    expectedDelivery: text(),
    trackingUrl: text(),
    failure: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
    sentAt: timestamp({ withTimezone: true }),
    refundedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("postcards_event_idx").on(t.eventId),
    index("postcards_status_idx").on(t.status, t.updatedAt),
    // The print service's webhooks name a card by its id there.
    index("postcards_print_idx").on(t.printId),
    check("postcards_amount_check", sql`${t.amount} >= 0`),
  ],
);

// Every print service webhook event taken in, by the service's event id: a repeated delivery finds
// its row and changes nothing (docs/decisions/030-postcards.md).
export const printMailEvents = pgTable("print_mail_events", {
  id: text().primaryKey(),
  type: text().notNull(),
  /** The print service's id of the card the event is about. */
  objectId: text(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// The local print service's postcards (used when no LOB_API_KEY is set), one per idempotency key.
export const localPostcardMailings = pgTable("local_postcard_mailings", {
  id: text().primaryKey(),
  idempotencyKey: text().notNull().unique(),
  toAddress: jsonb().$type<PostalAddress>().notNull(),
  frontUrl: text().notNull(),
  backUrl: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type Postcard = typeof postcards.$inferSelect;
