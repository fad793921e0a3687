import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// Every payment webhook event we have taken in, by the payment service's event id. The row is
// written in the same transaction as the event's effects: a repeated delivery finds it and does
// nothing, and a failed one leaves no row, so the payment service's retry applies it again
// (docs/decisions/019-payments.md).
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: text().primaryKey(),
    type: text().notNull(),
    /** The id of the event's object (a checkout session, a subscription, a charge…). */
    objectId: text(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("payment_events_object_idx").on(t.objectId, t.type)],
);

// The local payment service (used when no STRIPE_SECRET_KEY is set) keeps the objects it serves,
// shaped like the payment service's own (checkout sessions, customers, subscriptions, charges,
// refunds, events…), as JSON by id.
export const localPaymentObjects = pgTable(
  "local_payment_objects",
  {
    id: text().primaryKey(),
    /** The object's kind, as in its `object` field: "checkout.session", "customer", "event"… */
    object: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("local_payment_objects_object_idx").on(t.object, t.createdAt)],
);

// Answers of the local payment service to requests sent with an Idempotency-Key: the same key
// gets the same answer, as from the real service.
export const localPaymentRequests = pgTable("local_payment_requests", {
  idempotencyKey: text().primaryKey(),
  method: text().notNull(),
  path: text().notNull(),
  status: integer().notNull(),
  body: jsonb().$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type PaymentEventRow = typeof paymentEvents.$inferSelect;
export type LocalPaymentObject = typeof localPaymentObjects.$inferSelect;
