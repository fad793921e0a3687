import crypto from "node:crypto";
import type { User } from "drizzle/schema";
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

export { inDays };
