import crypto from "node:crypto";
import type { User } from "drizzle/schema";
import { db } from "~/lib/db.server";
import { setEventPaid } from "~/models/event.server";
import { createEvent, parseNewEvent } from "~/services/events/events.server";

const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000);

/** An event straight through the service, for tests about something else than starting one. */
export async function createTestEvent(creator: User, overrides: Record<string, unknown> = {}) {
  return createEvent(
    creator,
    parseNewEvent({
      occasion: "birthday",
      recipients: [{ firstName: "Ana", lastName: `Silva-${crypto.randomBytes(3).toString("hex")}` }],
      deadline: inDays(10).toISOString(),
      prompts: ["What's your favourite memory with Ana?"],
      message: "Let's surprise her!",
      ...overrides,
    }),
  );
}

/**
 * A Chorus already paid for, as after checkout: for tests of what payment unlocks (delivery to
 * the recipient, the full-quality download) that are about something else than paying.
 */
export async function createPaidTestEvent(creator: User, overrides: Record<string, unknown> = {}) {
  const event = await createTestEvent(creator, overrides);
  return (await setEventPaid(db(), event.id, true))!;
}

export { inDays };
