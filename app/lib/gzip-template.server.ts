import zlib from "node:zlib";

// A text compressed once with gaps left in it, each gap filled per answer without compressing
// again: a kept page is the same HTML for every visitor but for its CSP nonce, and compressing
// the whole page (~70 KB, the stylesheet included) for each visit cost more than everything
// else the visit does (docs/decisions/060-the-event-page-on-any-machine.md).
//
// A gzip stream's deflate data is a run of blocks, each of which may be compressed or stored as
// it is (RFC 1951). Each piece between the gaps is compressed alone and ended with a sync flush,
// which ends it on a byte and refers to nothing before it; a gap becomes a stored block of its
// own. The gzip trailer's CRC-32 of the whole is combined from the pieces' (as zlib's
// crc32_combine does), so the text is never read again.

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty last block (fixed Huffman codes, nothing but its end): what a deflate stream ends with. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);
const CRC32_POLYNOMIAL = 0xedb88320;
/** A stored block holds at most 65,535 bytes. */
const MAX_GAP_BYTES = 0xffff;

export interface GzipTemplate {
  /** Each piece's deflate blocks, ending on a byte boundary; the gaps fall between them. */
  pieces: Buffer[];
  /** Each piece's CRC-32, length in bytes, and the factor that moves a CRC past it (crc32Shift). */
  crcs: number[];
  lengths: number[];
  shifts: number[];
}

/** `pieces` compressed once, to be joined by a gap's text later (gzipFromTemplate). */
export function gzipTemplate(pieces: Buffer[]): GzipTemplate {
  return {
    pieces: pieces.map((piece) => zlib.deflateRawSync(piece, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH })),
    crcs: pieces.map((piece) => zlib.crc32(piece)),
    lengths: pieces.map((piece) => piece.length),
    shifts: pieces.map((piece) => crc32Shift(piece.length)),
  };
}

/** The gzip stream of the template's pieces with `gap` between each two. */
export function gzipFromTemplate(template: GzipTemplate, gap: Buffer): Uint8Array<ArrayBuffer> {
  if (gap.length > MAX_GAP_BYTES) throw new Error("a gap in a gzip template is at most 65,535 bytes");
  const stored = Buffer.alloc(5 + gap.length);
  // Not the last block, stored (type 00); its length and the length's complement, least significant byte first.
  stored.writeUInt16LE(gap.length, 1);
  stored.writeUInt16LE(~gap.length & 0xffff, 3);
  gap.copy(stored, 5);
  const gapCrc = zlib.crc32(gap);
  const gapShift = crc32Shift(gap.length);
  const parts: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  template.pieces.forEach((piece, index) => {
    if (index > 0) {
      parts.push(stored);
      crc = crc32Combine(crc, gapCrc, gapShift);
      length += gap.length;
    }
    parts.push(piece);
    crc = crc32Combine(crc, template.crcs[index]!, template.shifts[index]!);
    length += template.lengths[index]!;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // The length modulo 2^32, as gzip keeps it.
  trailer.writeUInt32LE(length >>> 0, 4);
  parts.push(LAST_BLOCK, trailer);
  return Buffer.concat(parts);
}

/** Whether an Accept-Encoding header allows gzip (by name or by `*`, with a weight above 0). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  let named: boolean | undefined;
  let any = false;
  for (const entry of acceptEncoding.split(",")) {
    const [coding = "", ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase());
    const weight = parameters.find((parameter) => parameter.startsWith("q="));
    const allowed = weight === undefined || Number(weight.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") named = allowed;
    else if (coding === "*") any = allowed;
  }
  return named ?? any;
}

// ——— CRC-32 of two texts joined, from each one's (zlib's crc32_combine) ———

/** a × b modulo the CRC-32 polynomial (bits reflected, as the CRC keeps them). */
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000;
  let product = 0;
  for (;;) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ CRC32_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0…31. */
const X_TO_2_TO_K = (() => {
  const table = new Uint32Array(32);
  let power = 0x40000000; // x^1
  table[0] = power;
  for (let k = 1; k < 32; k++) table[k] = power = multiplyModP(power, power);
  return table;
})();

/** What moves a CRC-32 past `bytes` bytes: x^(8 × bytes) modulo the polynomial. */
export function crc32Shift(bytes: number): number {
  let power = 0x80000000; // x^0
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k++) if (n % 2) power = multiplyModP(X_TO_2_TO_K[k & 31]!, power);
  return power;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and crc32Shift(B's length). */
export function crc32Combine(crcA: number, crcB: number, shiftB: number): number {
  return (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;
}
