// What the hostile-input test sends: the app's routes read from app/routes (so a new route is
// fuzzed without anyone listing it), the field and intent names the app's schemas and forms use,
// and fast-check arbitraries for hostile path segments, strings, bodies and content types.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";

const APP = path.resolve("app");
const ROUTES = path.join(APP, "routes");

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface Segment {
  /** The literal text, or the name of the parameter ("*" for a splat). */
  text: string;
  param: boolean;
}

export interface RouteCall {
  file: string;
  segments: Segment[];
  methods: Method[];
}

/** A route module's URL, by Remix's flat-file convention: dots are slashes, `$x` a parameter, `_` suffixes and `_` layouts vanish. */
function segmentsOf(file: string): Segment[] {
  const name = file.replace(/\.(tsx?|jsx?)$/, "");
  if (name === "_index") return [];
  return name
    .split(".")
    .filter((part) => !part.startsWith("_") && !/^\[?_.*\]?$/.test(part))
    .map((part) => part.replace(/_$/, ""))
    .map((part) =>
      part === "$"
        ? { text: "*", param: true }
        : part.startsWith("$")
          ? { text: part.slice(1), param: true }
          : { text: part, param: false },
    );
}

/** Every /api route module and the methods it answers (the handlers `apiResource` is given). */
export function apiRoutes(): RouteCall[] {
  return fs
    .readdirSync(ROUTES)
    .filter((file) => file.startsWith("api.") && /\.tsx?$/.test(file))
    .map((file) => {
      const source = fs.readFileSync(path.join(ROUTES, file), "utf8");
      const methods = [...source.matchAll(/^\s+async (GET|POST|PUT|DELETE)\(/gm)].map((m) => m[1] as Method);
      return { file, segments: segmentsOf(file), methods: methods.length ? methods : (["GET", "POST", "PUT", "DELETE"] as Method[]) };
    });
}

/**
 * The page route modules: files of app/routes, and route folders by their `route` module (Remix's
 * flat-routes convention), each named by its path under app/routes.
 */
function pageModules(): string[] {
  return fs.readdirSync(ROUTES, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith("api.")) return [];
    if (entry.isFile()) return /\.tsx?$/.test(entry.name) ? [entry.name] : [];
    const route = fs.readdirSync(path.join(ROUTES, entry.name)).find((name) => /^route\.tsx?$/.test(name));
    return route ? [`${entry.name}/${route}`] : [];
  });
}

/** Every page route with an `action`: the forms a browser posts. */
export function pageActions(): RouteCall[] {
  return pageModules()
    .filter((file) =>
      /export (async function action\b|const action\b|\{[^}]*\baction\b[^}]*\})/.test(fs.readFileSync(path.join(ROUTES, file), "utf8")),
    )
    .map((file) => ({ file, segments: segmentsOf(file.replace(/\/route\.tsx?$/, "")), methods: ["POST"] as Method[] }));
}

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.") ? [fs.readFileSync(full, "utf8")] : [];
  });
}

/** The field names the app's schemas and forms read, and the intents its page forms dispatch on. */
export function vocabulary() {
  const sources = sourcesUnder(APP);
  const fields = new Set<string>();
  const intents = new Set<string>();
  for (const source of sources) {
    for (const m of source.matchAll(/\b([a-zA-Z]\w{1,40})\s*:\s*z\./g)) fields.add(m[1]!);
    for (const m of source.matchAll(/\bname="([\w.]+)"/g)) fields.add(m[1]!);
    for (const m of source.matchAll(/\b(?:text|formText|field|value)\((?:form, )?"(\w+)"\)/g)) fields.add(m[1]!);
    for (const m of source.matchAll(/name="intent"\s+value="([\w-]+)"/g)) intents.add(m[1]!);
    for (const m of source.matchAll(/^\s+async\s+"?([a-z][a-z-]*)"?\(\{?/gm))
      if (!/^(GET|POST|PUT|DELETE)$/.test(m[1]!)) intents.add(m[1]!);
  }
  fields.add("intent");
  return { fields: [...fields].sort(), intents: [...intents].sort() };
}

// ── hostile values ───────────────────────────────────────────────────────────────────────────

/** Path segments sent as they are, not escaped: traversal, broken and odd escapes, odd numbers. */
export const RAW_HOSTILE_SEGMENTS = [
  "..",
  "../..",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f",
  "%E0%A4%A",
  "%",
  "%zz",
  "%C0%AF",
  "%ED%A0%80",
  "%00",
  "%0A",
  "-1",
  "0",
  "1e309",
  "9".repeat(40),
  "a".repeat(4000),
  "%F0%9F%8E%89",
  "null",
  "undefined",
  "[object%20Object]",
  "00000000-0000-0000-0000-000000000000",
  "%EF%BC%A1%EF%BC%A2",
];

/** Any string as a path segment: UTF-8 bytes, escaped (a lone surrogate becomes U+FFFD on the wire). */
export const escapeSegment = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

const loneSurrogate = fc.constantFrom("\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uD83D");

/** Strings no one types: NUL, lone surrogates, control characters, very long, or plain unicode. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.string({ maxLength: 20 }), fc.constantFrom("\u0000", "\u0000\u0000", "a\u0000b"), fc.string({ maxLength: 20 }))
    .map((p) => p.join("")),
  fc.tuple(fc.string({ maxLength: 20 }), loneSurrogate, fc.string({ maxLength: 20 })).map((p) => p.join("")),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom(200_000, 1_100_000).map((n) => "x".repeat(n)),
  fc.constantFrom("", " ", "‮evil", "👨‍👩‍👧‍👦".repeat(50), "<script>alert(1)</script>", "' or 1=1 --", "${7*7}", "%E0%A4%A", "../../etc/passwd"),
);

/** Values of the wrong type for any field. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, [], {}, [[]], { length: 1 }, ["a", "b"]),
  fc.integer(),
  fc.double(),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

/** A deeply nested JSON text (built as text: too deep for a recursive stringify). */
export const deepJson = (depth: number, leaf = '"\\u0000"') => `${'{"a":['.repeat(depth)}${leaf}${"]}".repeat(depth)}`;

export type BodyKind = "json" | "form" | "multipart" | "text" | "empty" | "mismatch";

export interface HostileBody {
  kind: BodyKind;
  fields: Record<string, unknown>;
  /** Raw JSON to send instead of `fields` (deep nesting, not an object). */
  rawJson?: string;
  /** Broken percent escapes to append to a urlencoded body. */
  brokenEscapes?: boolean;
}

/** A body built from the app's own field names, each holding a hostile value of the right or wrong type. */
export function hostileBody(fields: string[], intents: string[]): fc.Arbitrary<HostileBody> {
  const value = fc.oneof({ weight: 4, arbitrary: hostileString }, { weight: 1, arbitrary: wrongType });
  const record = fc
    .tuple(fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 6 }), fc.option(fc.constantFrom(...intents), { nil: undefined }))
    .map(([record, intent]) => (intent ? { ...record, intent } : record));
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constantFrom<BodyKind>("json", "form", "multipart", "text", "empty", "mismatch"),
        fields: record,
        brokenEscapes: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant<BodyKind>("json"),
        fields: fc.constant({}),
        rawJson: fc.oneof(
          fc.constantFrom(
            deepJson(5_000),
            deepJson(60_000),
            `[${deepJson(100)}]`,
            '"just a string"',
            "null",
            "12",
            '{"__proto__":{"admin":true}}',
            '{"a":"\\ud800"}',
            '{"\\u0000":1}',
          ),
          fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
        ),
      }),
    },
  );
}

/** The wire form of a body: its bytes and content type, as `kind` says (a mismatch says JSON and sends a form). */
export async function encodeBody(body: HostileBody): Promise<{ bytes?: Buffer; type?: string }> {
  const strings = Object.entries(body.fields).map(([k, v]) => [k, typeof v === "string" ? v : (JSON.stringify(v) ?? "")] as const);
  const urlencoded = () => {
    const text = new URLSearchParams(strings.map(([k, v]) => [k, v])).toString();
    return body.brokenEscapes ? `${text}&caption=%E0%A4%A&name=%&%zz=1&title=a%00b` : text;
  };
  switch (body.kind) {
    case "json":
      return { bytes: Buffer.from(body.rawJson ?? JSON.stringify(body.fields)), type: "application/json" };
    case "form":
      return { bytes: Buffer.from(urlencoded()), type: "application/x-www-form-urlencoded" };
    case "multipart": {
      const form = new FormData();
      for (const [k, v] of strings) form.append(k, v);
      form.append("file", new File([Buffer.from("not really a photo")], "ph\u0000oto.jpg", { type: "image/jpeg" }));
      const request = new Request("http://localhost/", { method: "POST", body: form });
      return { bytes: Buffer.from(await request.arrayBuffer()), type: request.headers.get("content-type")! };
    }
    case "text":
      return { bytes: Buffer.from(strings.map(([k, v]) => `${k}=${v}`).join("\n")), type: "text/plain" };
    case "empty":
      return {};
    case "mismatch":
      return { bytes: Buffer.from(urlencoded()), type: "application/json" };
  }
}

// ── what no answer may contain ──────────────────────────────────────────────────────────────

const SQL = [
  /insert into/i,
  /\bselect\s+(?:"|\*|distinct\b|count\()/i,
  /\b(?:from|into|update|join)\s+"\w+"/i,
  /\bdelete from\b/i,
  /violates .* constraint/i,
];

/** Why an answer leaks or fails, or null when it is acceptable. */
export function leakIn(status: number, type: string, body: string, isApi: boolean, forbiddenPaths: string[]): string | null {
  if (status >= 500) return `answered ${status}`;
  if (isApi && /text\/html/i.test(type)) return "an HTML answer from /api";
  if (body.includes("    at ")) return "a stack trace in the answer";
  const sql = SQL.find((pattern) => pattern.test(body));
  if (sql) return `SQL in the answer (${sql})`;
  const where = forbiddenPaths.find((p) => body.includes(p));
  if (where) return `a path of the machine in the answer (${where})`;
  return null;
}
