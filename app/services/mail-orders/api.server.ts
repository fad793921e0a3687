import type { User } from "drizzle/schema";
import { z } from "zod";
import type { MailOrderKind } from "~/domain/commerce/mail-orders";
import { parseWith } from "~/lib/http.server";
import { managedEventById, startMailOrder } from "./orders.server";

const eventInput = z.object({ eventId: z.uuid({ error: "Give the id of the Chorus." }) }).loose();

/** The API's order: the Chorus by id (404 unless the caller manages it), then the order's own fields. */
export async function orderByPost(user: User, kind: MailOrderKind, body: Record<string, unknown>) {
  const { eventId } = parseWith(eventInput, body);
  const event = await managedEventById(user, eventId);
  return startMailOrder(user, event, kind, body);
}
