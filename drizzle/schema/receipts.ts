import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { events } from "./events";
import { users } from "./users";

// The receipt of every payment that is not an account's cart or membership (those have invoices:
// commerce.ts): chip-ins towards a gift card, trees, postcards, DVDs and photo books by post. One row
// per payment at the payment service, written with the payment in the webhook's transaction, so its
// receipt e-mail is queued once; the refunds told by the payment service are recorded on it, each
// with its notice (docs/decisions/048). Amounts are integer minor units, lower-case currency.

export const receiptKind = pgEnum("receipt_kind", ["gift_contribution", "tree_contribution", "postcard", "mail_order"]);

export const receipts = pgTable(
  "receipts",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: receiptKind().notNull(),
    /** What was paid for, in its own table: the contribution, the postcard, the order. */
    subjectId: uuid().notNull(),
    provider: text().notNull(),
    providerPaymentId: text().notNull(),
    /** The payer's account when they paid as one (an organiser's postcard or order); null for contributors. */
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    eventId: uuid().references(() => events.id, { onDelete: "set null" }),
    /** Where the receipt and refund notices go, and whom they greet. */
    email: text().notNull(),
    name: text(),
    /** What it was for, as a sentence says it: "a gift card", "2 trees", "a printed postcard". */
    description: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    /** Refunded so far, as the payment service's refund events say (the larger total wins). */
    amountRefunded: integer().notNull().default(0),
    /** Why we refunded it, when we did (the refund notice says so); null for a refund made elsewhere. */
    refundReason: text(),
    paidAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("receipts_payment_unique").on(t.provider, t.providerPaymentId),
    index("receipts_payment_idx").on(t.providerPaymentId),
    index("receipts_user_idx").on(t.userId, t.paidAt),
    check("receipts_amounts_check", sql`${t.amount} >= 0 and ${t.amountRefunded} >= 0`),
  ],
);

export type Receipt = typeof receipts.$inferSelect;
export type ReceiptKind = (typeof receiptKind.enumValues)[number];
