export interface ParsedRange {
  start: number;
  end: number;
}

/**
 * One byte range from a Range header (RFC 9110): "bytes=0-", "bytes=100-199",
 * "bytes=-500". Null when absent or not a single range we serve; "unsatisfiable"
 * when it lies outside the file.
 */
export function parseByteRange(header: string | null, size: number): ParsedRange | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === "" && to === "") return null;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
