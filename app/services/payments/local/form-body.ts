// The Stripe API's request bodies are form-encoded with brackets for nesting
// (`line_items[0][price_data][unit_amount]=500`, `metadata[cartId]=…`). This reads one back into
// the object it was made from: numeric keys make arrays, everything else objects; values stay text.

type Node = { [key: string]: Value };
type Value = string | Node | Value[];

const MAX_DEPTH = 8;
const MAX_INDEX = 500;

/** Keys of one form field: `a[b][0]` → ["a", "b", "0"]; null when the name is not well formed. */
function keysOf(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return null;
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  const keys = [match[1]!, ...rest];
  if (keys.length > MAX_DEPTH || keys.some((key) => key === "" || key === "__proto__" || key === "constructor" || key === "prototype"))
    return null;
  return keys;
}

/** Reads a bracketed form body; throws on a malformed field name or an index out of range. */
export function parseBracketedForm(body: string): Record<string, unknown> {
  const root: Node = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const keys = keysOf(name);
    if (!keys) throw new Error(`Invalid parameter name: ${name}`);
    let node: Node = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      if (last) {
        node[key] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(keys[i + 1]!);
      if (nextIsIndex && Number(keys[i + 1]) > MAX_INDEX) throw new Error(`Index out of range in ${name}`);
      const existing = node[key];
      if (existing === undefined || typeof existing === "string") node[key] = nextIsIndex ? ([] as Value[]) : {};
      node = node[key] as Node;
    });
  }
  return compactArrays(root) as Record<string, unknown>;
}

/** Arrays filled by index may have holes (`[0]` and `[2]`); the service reads them in order. */
function compactArrays(value: Value): Value {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(compactArrays);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactArrays(v)]));
  return value;
}
