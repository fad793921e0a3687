import type { Event, Recipient } from "drizzle/schema";
import { recipientWithContactInput, MAX_RECIPIENTS } from "~/domain/event-input";
import { parsePhone } from "~/domain/phone";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, badRequest, parseWith } from "~/lib/http.server";
import { deleteRecipient, insertRecipient, listRecipients, updateRecipient } from "~/models/event.server";
import { queuePiecePreparation } from "~/services/render/piece-preparation.server";

function parseRecipient(payload: unknown, partial: boolean) {
  const schema = partial ? recipientWithContactInput.partial() : recipientWithContactInput;
  const parsed = parseWith(schema, payload);
  // The schema's defaults and transforms give a value for a field that was not sent (an empty last
  // name, a null e-mail); a partial change keeps only what the caller sent, so the rest stays as it is.
  const input = partial ? onlySent(parsed, payload) : parsed;
  let phone: string | null | undefined = undefined;
  if (input.phone !== undefined) {
    if (!input.phone) phone = null;
    else {
      const parsed = parsePhone(input.phone, env().DEFAULT_PHONE_COUNTRY);
      if (!parsed) throw badRequest("Some fields need your attention.", { phone: "Enter a valid phone number." });
      phone = parsed.e164;
    }
  }
  return { ...input, phone };
}

function onlySent<T extends object>(parsed: T, payload: unknown): Partial<T> {
  const sent = new Set(payload && typeof payload === "object" ? Object.keys(payload) : []);
  return Object.fromEntries(Object.entries(parsed).filter(([key]) => sent.has(key))) as Partial<T>;
}

export async function addRecipient(event: Event, payload: unknown) {
  const input = parseRecipient(payload, false);
  if ((await listRecipients(db(), event.id)).length >= MAX_RECIPIENTS) {
    throw new ApiError(409, "TOO_MANY_RECIPIENTS", `A Chorus can be for at most ${MAX_RECIPIENTS} people.`);
  }
  const recipient = await insertRecipient(db(), event.id, {
    firstName: input.firstName!,
    lastName: input.lastName ?? "",
    email: input.email ?? null,
    phone: input.phone ?? null,
  });
  // The opening card names the recipients.
  await queuePiecePreparation(event.id);
  return recipient;
}

export async function changeRecipient(recipient: Recipient, payload: unknown) {
  const input = parseRecipient(payload, true);
  if (Object.values(input).every((value) => value === undefined)) return recipient;
  const changed = (await updateRecipient(db(), recipient.id, input))!;
  await queuePiecePreparation(recipient.eventId);
  return changed;
}

/** A Chorus is always for someone: the last recipient cannot be removed. */
export async function removeRecipient(recipient: Recipient) {
  if ((await listRecipients(db(), recipient.eventId)).length <= 1) {
    throw new ApiError(409, "LAST_RECIPIENT", "A Chorus needs at least one recipient. Add another before removing this one.");
  }
  await deleteRecipient(db(), recipient.id);
  await queuePiecePreparation(recipient.eventId);
}
