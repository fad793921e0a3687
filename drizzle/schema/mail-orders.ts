import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { PostalAddress } from "../../app/domain/postal-address";
import { events } from "./events";
import { users } from "./users";

// Things Chorus posts (spec §7.2 `POST /v2/acutrack/orders`, `POST /v2/heirloom`,
// docs/decisions/029-dvds-and-keepsakes-by-post.md): a DVD of the published video, or a printed photo
// book of its stills, paid by the organiser and made and posted by a fulfilment service. One row is
// one order line (a product and its quantity) and one order at the vendor, keyed by the row's id.

/** dvd: the Acutrack-like disc service; keepsake: the Heirloom-like book printer. */
export const mailOrderKind = pgEnum("mail_order_kind", ["dvd", "keepsake"]);

/**
 * awaiting_payment: the checkout is open; paid: to be placed with the vendor; received, printed,
 * shipped: the vendor's progress; failed: the vendor refused or gave up; refunded: the money went back;
 * abandoned: the payment page expired unpaid (the organiser may pay again, which opens a new one).
 */
export const mailOrderStatus = pgEnum("mail_order_status", [
  "awaiting_payment",
  "paid",
  "received",
  "printed",
  "shipped",
  "failed",
  "refunded",
  "abandoned",
]);

export const mailOrders = pgTable(
  "mail_orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: mailOrderKind().notNull(),
    /** The catalogue product, and what it cost when ordered (minor units, lower-case currency). */
    productKey: text().notNull(),
    quantity: integer().notNull(),
    unitAmount: integer().notNull(),
    shippingAmount: integer().notNull(),
    totalAmount: integer().notNull(),
    currency: text().notNull(),
    address: jsonb().$type<PostalAddress>().notNull(),
    /** The published version the disc or book is made from. */
    publishedMediaId: uuid().notNull(),
    /** The secret part of the addresses the vendor fetches the video and the label art from. */
    fileToken: text().notNull(),
    status: mailOrderStatus().notNull().default("awaiting_payment"),
    provider: text(),
    checkoutSessionId: text(),
    /** How many payment pages expired unpaid: each new one is keyed by it, so paying again opens a new page. */
    checkoutAttempts: integer().notNull().default(0),
    paymentIntentId: text(),
    amountRefunded: integer().notNull().default(0),
    /** The fulfilment service that took it, its order id, and its tracking once shipped. */
    vendor: text(),
    vendorOrderId: text(),
    trackingNumber: text(),
    trackingUrl: text(),
    /** The day (YYYY-MM-DD) the service expects it delivered, when it gives one. */
    expectedDelivery: text(),
    failure: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("mail_orders_event_idx").on(t.eventId, t.createdAt),
    index("mail_orders_status_idx").on(t.status),
    uniqueIndex("mail_orders_session_unique").on(t.checkoutSessionId),
    check("mail_orders_quantity_check", sql`${t.quantity} between 1 and 10`),
    check("mail_orders_amounts_check", sql`${t.unitAmount} > 0 and ${t.shippingAmount} >= 0 and ${t.totalAmount} > 0`),
  ],
);

// The local fulfilment services' orders (used when a vendor has no key), one per external id.
export const localFulfilmentOrders = pgTable(
  "local_fulfilment_orders",
  {
    id: text().primaryKey(),
    service: mailOrderKind().notNull(),
    externalId: text().notNull(),
    quantity: integer().notNull(),
    address: jsonb().$type<PostalAddress>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("local_fulfilment_orders_external_unique").on(t.service, t.externalId)],
);

export type MailOrder = typeof mailOrders.$inferSelect;
