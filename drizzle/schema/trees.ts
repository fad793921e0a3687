import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { events } from "./events";

// Trees planted in the recipient's honour (spec §7.2 `POST /v2/tree/contributions`,
// docs/decisions/028-trees-and-the-live-pot.md): a contributor pays for a number of trees through the
// same checkout as carts, and the trees are ordered from the planting vendor once, keyed by the row's id.

/**
 * pending: a checkout was started; paid: the payment webhook recorded it and planting is queued;
 * planted: the vendor took the order; failed: the vendor refused for good (then refunded); abandoned:
 * its payment page expired unpaid.
 */
export const treeContributionStatus = pgEnum("tree_contribution_status", ["pending", "paid", "planted", "failed", "refunded", "abandoned"]);

export const treeContributions = pgTable(
  "tree_contributions",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    name: text().notNull(),
    email: text().notNull(),
    quantity: integer().notNull(),
    /** The price of one tree when the checkout started, and the total: integer minor units. */
    unitAmount: integer().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    /** The vendor's project the trees go to. */
    project: text().notNull(),
    status: treeContributionStatus().notNull().default("pending"),
    provider: text(),
    checkoutSessionId: text(),
    paymentIntentId: text(),
    amountRefunded: integer().notNull().default(0),
    /** The vendor's order, once placed; why planting failed, when it did. */
    plantingId: text(),
    failure: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
    plantedAt: timestamp({ withTimezone: true }),
    refundedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("tree_contributions_event_idx").on(t.eventId, t.status),
    uniqueIndex("tree_contributions_session_unique").on(t.checkoutSessionId),
    check("tree_contributions_quantity_check", sql`${t.quantity} between 1 and 100`),
    check("tree_contributions_amount_check", sql`${t.amount} = ${t.quantity} * ${t.unitAmount} and ${t.amount} > 0`),
  ],
);

export type TreeContribution = typeof treeContributions.$inferSelect;
