const PLACEHOLDER_ORIGIN = "http://chorus.invalid";
// Browsers drop tabs and line breaks from a URL and read a backslash as a slash, so "/\t/evil.example"
// would leave for another site; such paths are never ours.
// Control characters are what this pattern is for.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\]/;

/**
 * Where to send someone after logging in: a path of this site, or `fallback`. The path is checked
 * as a browser will read it — decoded and normalised against this origin — and returned in its
 * normalised, percent-encoded form, so what was checked is what is sent in the Location header.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || UNSAFE_CHARACTERS.test(to)) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    return fallback;
  }
  // An encoded slash, backslash or control character that would turn into one on a second decoding.
  if (decoded.startsWith("//") || UNSAFE_CHARACTERS.test(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(to, PLACEHOLDER_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}
