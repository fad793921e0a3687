import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import { acceptsGzip, crc32Combine, crc32Shift, gzipFromTemplate, gzipTemplate } from "~/lib/gzip-template.server";

const pieces = (text: string) => text.split("GAP").map((piece) => Buffer.from(piece, "utf8"));

describe("a text gzipped once with gaps filled per answer", () => {
  test("decodes to the pieces joined by the gap, wherever the gaps fall and whatever the text holds", () => {
    const style = "body { color: #123456; margin: 0 }\n".repeat(2000);
    const text = `GAP<html><style nonce="GAP">${style}</style><p>Añadir — 🎂</p><script nonce="GAP">start()</script>GAPGAP</html>GAP`;
    const template = gzipTemplate(pieces(text));
    for (const gap of ["n0nce+With/Base64==", "", "ü"]) {
      const gzipped = gzipFromTemplate(template, Buffer.from(gap, "utf8"));
      // gunzip checks the trailer's CRC-32 and length against what it decoded.
      expect(zlib.gunzipSync(gzipped).toString("utf8")).toBe(text.replaceAll("GAP", gap));
    }
  });

  test("is about as small as the whole text gzipped in one go", () => {
    const text = `<style nonce="GAP">${".card { padding: 1rem; border-radius: 8px }\n".repeat(1000)}</style><script nonce="GAP">x()</script>`;
    const gzipped = gzipFromTemplate(gzipTemplate(pieces(text)), Buffer.from("a".repeat(24)));
    const whole = zlib.gzipSync(text.replaceAll("GAP", "a".repeat(24)), { level: 9 });
    expect(gzipped.length).toBeLessThan(whole.length + 100);
  });

  test("combines two texts' CRC-32s into the CRC-32 of both", () => {
    const first = Buffer.from("The first part, ".repeat(100));
    for (const second of [Buffer.from(""), Buffer.from("x"), Buffer.alloc(70_000, "and the second")]) {
      expect(crc32Combine(zlib.crc32(first), zlib.crc32(second), crc32Shift(second.length))).toBe(
        zlib.crc32(Buffer.concat([first, second])),
      );
    }
  });

  test("is sent only to a client that accepts gzip", () => {
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, GZIP;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("br, *;q=0")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });
});
