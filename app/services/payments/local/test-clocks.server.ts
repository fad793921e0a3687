import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { findLocalPaymentObject, listLocalPaymentObjects, saveLocalPaymentObject, type StoredObject } from "~/models/local-payment.server";
import { createObject, LocalApiError, newId, nowSeconds, type PendingEvent } from "./objects.server";
import { runPeriodEnds } from "./subscriptions.server";

// Stripe's test clocks, in the local payment service: a clock frozen at a moment, customers made on
// it, and advancing it runs what falls due for their subscriptions meanwhile (renewals, a membership
// cancelled to end with its period ending), so a test sees a month go by in a second. Stripe
// advances a clock in the background; here it is done by the time the call answers ("ready").

const timestamp = z.coerce.number().int().min(0).max(4_102_444_800);

export const createTestClock = z.object({ frozen_time: timestamp, name: z.string().max(300).optional() });
export const advanceTestClock = z.object({ frozen_time: timestamp });

export function testClockCreate(tx: Db, input: z.infer<typeof createTestClock>) {
  const created = nowSeconds();
  return createObject(tx, {
    id: newId("clock"),
    object: "test_helpers.test_clock",
    created,
    // Stripe deletes a test clock, with its customers, 30 days after it was made.
    deletes_after: created + 30 * 86_400,
    frozen_time: input.frozen_time,
    livemode: false,
    name: input.name ?? null,
    status: "ready",
    status_details: {},
  });
}

/** Moves the clock (locked by the caller) on to `frozen_time` and runs every period end of its customers' subscriptions up to then. */
export async function testClockAdvance(
  tx: Db,
  clock: StoredObject,
  input: z.infer<typeof advanceTestClock>,
): Promise<{ clock: StoredObject; events: PendingEvent[] }> {
  if (input.frozen_time <= Number(clock.frozen_time)) {
    throw new LocalApiError(400, "The frozen_time must be after the test clock's current frozen_time.", { param: "frozen_time" });
  }
  clock.frozen_time = input.frozen_time;
  await saveLocalPaymentObject(tx, clock);
  const events: PendingEvent[] = [];
  for (const customer of await listLocalPaymentObjects(tx, "customer", { test_clock: clock.id })) {
    for (const listed of await listLocalPaymentObjects(tx, "subscription", { customer: customer.id })) {
      const subscription = await findLocalPaymentObject(tx, listed.id, "subscription", { lock: true });
      if (subscription) events.push(...(await runPeriodEnds(tx, subscription, input.frozen_time)));
    }
  }
  return { clock, events };
}
