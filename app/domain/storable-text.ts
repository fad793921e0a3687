/**
 * Text PostgreSQL cannot keep (docs/decisions/017-one-rule-for-unstorable-text.md): a NUL character,
 * which neither `text` nor `jsonb` accepts, and a lone UTF-16 surrogate, which `jsonb` refuses and
 * UTF-8 cannot encode. Nobody types either; they come from broken clients and from probing, and
 * are answered as a field error rather than reaching the database.
 */
// Control characters are what this pattern is for.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = "This contains characters we cannot store. Remove them and try again.";

export const isStorableText = (value: string) => !UNSTORABLE.test(value);

/** The name a browser gives an uploaded file, which is kept with it. */
const fileName = (value: object) => (typeof Blob !== "undefined" && value instanceof Blob && "name" in value ? String(value.name) : null);

interface Place {
  value: unknown;
  key: string;
  parent: Place | null;
}

/** Deeper places are named by their ancestor at this depth: no form has fields nested further. */
const DEEPEST_NAMED = 8;

const pathOf = (place: Place | null) => {
  const keys: string[] = [];
  for (let at = place; at?.parent; at = at.parent) keys.push(at.key);
  return keys.length ? keys.reverse().slice(0, DEEPEST_NAMED).join(".") : "form";
};

/**
 * Every place in a payload (a parsed JSON body, form data, upload metadata) holding unstorable
 * text, as dotted paths like the schema's field errors ("form" for the payload itself). Keys are
 * checked too, as their object's place: a record's keys are stored as they come. Walked without
 * recursion and with paths built only for a finding, so a deeply nested payload costs linear time.
 */
export function unstorableTextPaths(input: unknown): string[] {
  const found = new Set<string>();
  const pending: Place[] = [{ value: input, key: "", parent: null }];
  const seen = new Set<object>();
  while (pending.length) {
    const place = pending.pop()!;
    const { value } = place;
    if (typeof value === "string") {
      if (!isStorableText(value)) found.add(pathOf(place));
      continue;
    }
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const name = fileName(value);
    if (name !== null) {
      if (!isStorableText(name)) found.add(pathOf(place));
      continue;
    }
    // Form data keeps its fields out of sight of Object.entries, and may repeat one.
    const entries = typeof FormData !== "undefined" && value instanceof FormData ? [...value.entries()] : Object.entries(value);
    for (const [key, child] of entries) {
      if (!isStorableText(key)) found.add(pathOf(place));
      pending.push({ value: child, key, parent: place });
    }
  }
  return [...found];
}
