import crypto from "node:crypto";
import Stripe from "stripe";
import { enqueue } from "~/jobs/queue.server";
import type { Db } from "~/lib/db.server";
import { insertLocalPaymentObject, type StoredObject } from "~/models/local-payment.server";

// The objects of the local payment service, shaped like Stripe's: ids with Stripe's prefixes,
// `object` naming the kind, Unix-second timestamps, and events that carry a snapshot of the object.

/** What the service keeps for itself on an object (lines, metadata for the objects it will make); never sent. */
export const PRIVATE = "_local";

export const newId = (prefix: string) => `${prefix}_local_${crypto.randomBytes(12).toString("hex")}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An object as the API answers it: without what the service keeps for itself. */
export function publicView(object: StoredObject): StoredObject {
  const { [PRIVATE]: _kept, ...rest } = object;
  return rest as StoredObject;
}

/** A refusal shaped like Stripe's error answers: `{ error: { type, code?, message, param? } }`. */
export class LocalApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: { type?: string; code?: string; param?: string } = {},
  ) {
    super(message);
  }

  get body() {
    return { error: { type: this.detail.type ?? "invalid_request_error", message: this.message, ...this.detail } };
  }
}

export const noSuch = (what: string, id: string) =>
  new LocalApiError(404, `No such ${what}: '${id}'`, { code: "resource_missing", param: "id" });

export async function createObject(db: Db, object: StoredObject) {
  await insertLocalPaymentObject(db, object);
  return object;
}

export interface PendingEvent {
  type: string;
  object: StoredObject;
  previousAttributes?: Record<string, unknown>;
}

/**
 * Records events about objects inside the caller's transaction, and returns their ids: the caller
 * queues their delivery (queueDeliveries) once the transaction has committed, so a delivery never
 * looks for an event that is not there yet.
 */
export async function recordEvents(db: Db, events: PendingEvent[]): Promise<string[]> {
  const ids: string[] = [];
  for (const event of events) {
    const id = newId("evt");
    await createObject(db, {
      id,
      object: "event",
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: event.type,
      data: { object: publicView(event.object), ...(event.previousAttributes ? { previous_attributes: event.previousAttributes } : {}) },
    });
    ids.push(id);
  }
  return ids;
}

/** Sends each event to our webhook route by a background job, tried again until it is taken. */
export async function queueDeliveries(eventIds: string[]) {
  for (const eventId of eventIds) await enqueue("local-payment-webhook", { eventId });
}
