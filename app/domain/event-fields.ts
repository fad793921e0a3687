/** Spec §3: removed from every event update payload; only the system changes them. */
export const PROTECTED_EVENT_FIELDS = [
  "id",
  "uuid",
  "eventId",
  "privateKey",
  "publishedMedia",
  "recipients",
  "paid",
  "contributorsNotified",
  "viaEmail",
  "viaSms",
] as const;

export type ProtectedEventField = (typeof PROTECTED_EVENT_FIELDS)[number];

/** A copy of `payload` without the protected fields, whatever else it holds. */
export function stripProtectedEventFields<T extends Record<string, unknown>>(payload: T): Omit<T, ProtectedEventField> {
  const copy: Record<string, unknown> = { ...payload };
  for (const field of PROTECTED_EVENT_FIELDS) delete copy[field];
  return copy as Omit<T, ProtectedEventField>;
}
