import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { stripNulBytes } from "~/lib/strip-nul-bytes.server";

function render(element: ReturnType<typeof createElement>, through: (source: PassThrough) => NodeJS.ReadableStream) {
  return new Promise<string>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onAllReady() {
        const sink = new PassThrough();
        pipe(sink);
        text(through(sink)).then(resolve, reject);
      },
      onShellError: reject,
    });
  });
}

// Many short text chunks, then an en dash: for some padding it straddles React's 2048-byte buffer.
const page = (padding: number) =>
  createElement(
    "div",
    null,
    ...Array.from({ length: 85 }, (_, i) => createElement("span", { key: i }, "0123456789")),
    createElement("p", { key: "end" }, `${"x".repeat(padding)}© 2015–2026`),
  );

describe("stripNulBytes", () => {
  test("React's streamed HTML has NUL bytes at buffer edges, and the filter removes them", async () => {
    let found: number | undefined;
    for (let padding = 0; padding < 400 && found === undefined; padding++) {
      const raw = await render(page(padding), (s) => s);
      if (raw.includes("\u0000")) found = padding;
    }
    expect(found).toBeDefined();
    const clean = await render(page(found!), (s) => s.pipe(stripNulBytes()));
    expect(clean).not.toContain("\u0000");
    expect(clean).toContain("© 2015–2026");
  });

  test("chunks without NUL bytes pass through unchanged", async () => {
    const out = await text(new PassThrough().end(Buffer.from("héllo – wörld")).pipe(stripNulBytes()));
    expect(out).toBe("héllo – wörld");
  });
});
