export interface RecipientName {
  firstName: string;
  lastName?: string | null;
}

/** Spec §3: with no name the copy speaks of "someone special". */
export const NO_RECIPIENT_TEXT = "someone special";

const displayName = (r: RecipientName) =>
  [r.firstName, r.lastName]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(" ");

/**
 * Joins recipients' names for copy (spec §3): "Ana", "Ana and Bo", "Ana, Bo and Cy".
 * `firstNamesOnly` keeps it warm in headings ("Ana and Bo's birthday").
 */
export function formatRecipientNames(recipients: readonly RecipientName[], options: { firstNamesOnly?: boolean } = {}) {
  const names = recipients.map((r) => (options.firstNamesOnly ? r.firstName.trim() : displayName(r))).filter((name) => name.length > 0);
  if (names.length === 0) return NO_RECIPIENT_TEXT;
  if (names.length === 1) return names[0]!;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Spec §3: names ending in s take an apostrophe only ("James'"), others 's ("Ana's"). */
export function possessive(name: string) {
  const trimmed = name.trim();
  return /s$/i.test(trimmed) ? `${trimmed}'` : `${trimmed}'s`;
}

/** "Ana and Bo's birthday"; "someone special's birthday" when nobody is named. */
export function occasionTitle(recipients: readonly RecipientName[], phrase: string) {
  return `${possessive(formatRecipientNames(recipients, { firstNamesOnly: true }))} ${phrase}`;
}
