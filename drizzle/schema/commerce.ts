import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { events, rsvps } from "./events";
import { users } from "./users";

// Carts, promo codes, payments and invoices (spec §3 "Cart", §7.2 Carts, Promo codes, Payments,
// Reference). Every amount is integer minor units with a lower-case ISO currency code.

/** A product chosen in a cart, by catalogue key. */
export interface CartProductRow {
  key: string;
  quantity: number;
}

/** One line of an invoice as it was sold: kept as it was, whatever the catalogue says later. */
export interface InvoiceLineRow {
  key: string;
  name: string;
  quantity: number;
  unitAmount: number;
  amount: number;
  discount: number;
  net: number;
  included: string | null;
}

export const cartStatus = pgEnum("cart_status", ["open", "paid"]);

// One open cart per event. `version` goes up on every change: a checkout started for one version
// is keyed by it, so pressing Pay twice makes one payment, and a changed cart makes a new one.
export const carts = pgTable(
  "carts",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: cartStatus().notNull().default("open"),
    version: integer().notNull().default(1),
    promoCodeId: uuid().references(() => promoCodes.id, { onDelete: "set null" }),
    billingCountry: text(),
    checkoutSessionId: text(),
    paidAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("carts_one_open_per_event")
      .on(t.eventId)
      .where(sql`${t.status} = 'open'`),
    index("carts_event_idx").on(t.eventId),
  ],
);

export const cartProducts = pgTable(
  "cart_products",
  {
    cartId: uuid()
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    key: text().notNull(),
    quantity: integer().notNull().default(1),
  },
  (t) => [uniqueIndex("cart_products_cart_key").on(t.cartId, t.key), check("cart_products_quantity_positive", sql`${t.quantity} > 0`)],
);

export const promoKind = pgEnum("promo_kind", ["percent", "amount"]);

export const promoCodes = pgTable(
  "promo_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    // Stored upper-cased; the index on lower() makes codes unique whatever their case.
    code: text().notNull(),
    kind: promoKind().notNull(),
    /** Percent (1–100) or minor units. */
    value: integer().notNull(),
    currency: text(),
    expiresAt: timestamp({ withTimezone: true }),
    maxRedemptions: integer(),
    maxPerUser: integer(),
    /** Discounts only these catalogue keys; empty is everything. */
    productKeys: jsonb().$type<string[]>().notNull().default([]),
    firstPurchaseOnly: boolean().notNull().default(false),
    paused: boolean().notNull().default(false),
    // A personal code: only its owner uses it, by account or (for someone without one) by e-mail.
    ownerUserId: uuid().references(() => users.id, { onDelete: "cascade" }),
    ownerEmail: text(),
    // The code given to a contributor for a Chorus of their own: one per invitee.
    rsvpId: uuid().references(() => rsvps.id, { onDelete: "set null" }),
    createdBy: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("promo_codes_code_unique").on(sql`lower(${t.code})`),
    uniqueIndex("promo_codes_rsvp_unique").on(t.rsvpId),
    index("promo_codes_owner_idx").on(t.ownerUserId),
    check("promo_codes_value_range", sql`${t.value} > 0 and (${t.kind} <> 'percent' or ${t.value} <= 100)`),
    check("promo_codes_amount_currency", sql`${t.kind} <> 'amount' or ${t.currency} is not null`),
  ],
);

// A code used on a cart that was paid for (or finalized at no cost): one per cart.
export const promoRedemptions = pgTable(
  "promo_redemptions",
  {
    id: uuid().primaryKey().defaultRandom(),
    promoCodeId: uuid()
      .notNull()
      .references(() => promoCodes.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    cartId: uuid()
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    discount: integer().notNull(),
    currency: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("promo_redemptions_cart_unique").on(t.cartId), index("promo_redemptions_code_user_idx").on(t.promoCodeId, t.userId)],
);

// A use of a promo code held for an open payment page (docs/decisions/046-limits-held-while-a-page-is-open.md):
// a code's limit counts its redemptions and the holds still live, so two pages cannot both be paid
// with its last use. A hold is live until `expiresAt` (the page's own expiry) and is removed when the
// page expires, when it could not be opened, or when its cart is settled (the redemption takes over).
export const promoCodeHolds = pgTable(
  "promo_code_holds",
  {
    id: uuid().primaryKey().defaultRandom(),
    promoCodeId: uuid()
      .notNull()
      .references(() => promoCodes.id, { onDelete: "cascade" }),
    cartId: uuid()
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The checkout's idempotency key (`cart:<id>:v<version>`): pressing Pay again keeps the same hold. */
    checkoutKey: text().notNull(),
    checkoutSessionId: text(),
    /** The page's expiry: a little later while the page is being opened, then its session's `expires_at`. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("promo_code_holds_checkout_key_unique").on(t.checkoutKey),
    index("promo_code_holds_code_idx").on(t.promoCodeId, t.expiresAt),
    index("promo_code_holds_session_idx").on(t.checkoutSessionId),
    index("promo_code_holds_cart_idx").on(t.cartId),
  ],
);

export const paymentStatus = pgEnum("payment_status", ["paid", "refunded", "partially_refunded"]);

// Money the payment service took: one row per paid cart or membership invoice.
export const payments = pgTable(
  "payments",
  {
    id: uuid().primaryKey().defaultRandom(),
    provider: text().notNull(),
    providerPaymentId: text().notNull(),
    providerSessionId: text(),
    providerCustomerId: text(),
    amount: integer().notNull(),
    amountRefunded: integer().notNull().default(0),
    currency: text().notNull(),
    status: paymentStatus().notNull().default("paid"),
    cartId: uuid().references(() => carts.id, { onDelete: "set null" }),
    eventId: uuid().references(() => events.id, { onDelete: "set null" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payments_provider_payment_unique").on(t.provider, t.providerPaymentId),
    uniqueIndex("payments_cart_unique").on(t.cartId),
    index("payments_user_idx").on(t.userId),
  ],
);

/** Invoice numbers count up without gaps a person would notice: CH-000001, CH-000002… */
export const invoiceNumbers = pgSequence("invoice_number_seq", { startWith: 1 });

export const invoices = pgTable(
  "invoices",
  {
    id: uuid().primaryKey().defaultRandom(),
    number: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    cartId: uuid().references(() => carts.id, { onDelete: "set null" }),
    eventId: uuid().references(() => events.id, { onDelete: "set null" }),
    paymentId: uuid().references(() => payments.id, { onDelete: "set null" }),
    /** The payment service's invoice this one records (a membership's period): one of ours per theirs. */
    providerInvoiceId: text(),
    lines: jsonb().$type<InvoiceLineRow[]>().notNull(),
    subtotal: integer().notNull(),
    discount: integer().notNull(),
    tax: integer().notNull(),
    total: integer().notNull(),
    currency: text().notNull(),
    taxLabel: text().notNull().default("Tax"),
    taxBasisPoints: integer().notNull().default(0),
    country: text(),
    promoCode: text(),
    paidAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_cart_unique").on(t.cartId),
    uniqueIndex("invoices_provider_invoice_unique").on(t.providerInvoiceId),
    index("invoices_user_idx").on(t.userId, t.paidAt),
  ],
);

export type Cart = typeof carts.$inferSelect;
export type CartProductRecord = typeof cartProducts.$inferSelect;
export type PromoCode = typeof promoCodes.$inferSelect;
export type PromoRedemption = typeof promoRedemptions.$inferSelect;
export type PromoCodeHold = typeof promoCodeHolds.$inferSelect;
export type Payment = typeof payments.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
