import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { events } from "./events";

// A group gift card on a Chorus (spec §7.2 "Contributions", docs/decisions/023-group-gift-cards.md):
// the organiser picks a brand for the recipient's country, contributors chip in by card, and the pot is
// ordered as one card when the Chorus is delivered. Amounts are integer minor units; the currency is
// the brand's, upper case as the gift-card vendor writes it.

/** collecting: open to contributions; ordering: the payout has started; delivered; failed; refunded. */
export const giftStatus = pgEnum("gift_status", ["collecting", "ordering", "delivered", "failed", "refunded"]);

export const gifts = pgTable(
  "gifts",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** The recipient's country the brand was chosen for (ISO 3166-1 alpha-2). */
    country: text().notNull(),
    productId: text().notNull(),
    productName: text().notNull(),
    currency: text().notNull(),
    /** The brand's limits when it was chosen: each contribution, and the pot, must fit them. */
    minAmount: integer().notNull(),
    maxAmount: integer().notNull(),
    /** What the organiser hopes to collect; null when there is no target. */
    targetAmount: integer(),
    status: giftStatus().notNull().default("collecting"),
    /** The vendor's order, once placed; its claim link once delivered. */
    orderId: text(),
    claimUrl: text(),
    amountPaidOut: integer().notNull().default(0),
    failure: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("gifts_event_unique").on(t.eventId),
    check("gifts_amounts_check", sql`${t.minAmount} > 0 and ${t.maxAmount} >= ${t.minAmount}`),
  ],
);

/**
 * pending: a checkout was started; paid: the payment webhook recorded it; refunded; abandoned: its
 * payment page expired unpaid.
 */
export const giftContributionStatus = pgEnum("gift_contribution_status", ["pending", "paid", "refunded", "abandoned"]);

// The ledger of money in: one row per contribution, made pending when the checkout starts and marked
// paid only by the payment webhook (the source of truth).
export const giftContributions = pgTable(
  "gift_contributions",
  {
    id: uuid().primaryKey().defaultRandom(),
    giftId: uuid()
      .notNull()
      .references(() => gifts.id, { onDelete: "cascade" }),
    name: text().notNull(),
    email: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    status: giftContributionStatus().notNull().default("pending"),
    provider: text(),
    checkoutSessionId: text(),
    paymentIntentId: text(),
    amountRefunded: integer().notNull().default(0),
    /**
     * While pending, its amount is held out of the card's room until this moment (its payment page's
     * expiry), so two open pages cannot both fill the same room (docs/decisions/046).
     */
    holdsUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
    refundedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("gift_contributions_gift_idx").on(t.giftId, t.status),
    uniqueIndex("gift_contributions_session_unique").on(t.checkoutSessionId),
    check("gift_contributions_amount_check", sql`${t.amount} > 0`),
  ],
);

// The local gift-card vendor's orders (used when no TREMENDOUS_API_KEY is set), one per external id.
export const localGiftCardOrders = pgTable("local_gift_card_orders", {
  id: text().primaryKey(),
  externalId: text().notNull().unique(),
  productId: text().notNull(),
  amount: integer().notNull(),
  currency: text().notNull(),
  recipientName: text().notNull(),
  recipientEmail: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type Gift = typeof gifts.$inferSelect;
export type GiftContribution = typeof giftContributions.$inferSelect;
