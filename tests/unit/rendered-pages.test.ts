import zlib from "node:zlib";
import { describe, expect, test } from "vitest";
import { keepPage, keptPage, keptPageGzipped, renderKey } from "~/lib/rendered-pages.server";

const NONCE = "rendered+with/this+nonce==";
const page = (text: string) => `<script nonce="${NONCE}">${text}</script><p>${text}</p>`;

describe("rendered pages kept per state", () => {
  test("a kept page comes back with the asking request's nonce in place of its own, everywhere", () => {
    const key = renderKey(["onShellReady", "http://localhost/e/one", "200", '{"state":1}']);
    keepPage(key, `${page("one")}<style nonce="${NONCE}"></style>`, NONCE);
    expect(keptPage(key, "theAskingRequestsOwnNonce")).toBe(
      '<script nonce="theAskingRequestsOwnNonce">one</script><p>one</p><style nonce="theAskingRequestsOwnNonce"></style>',
    );
  });

  test("a kept page comes gzipped with the asking request's nonce, the same page for each request", () => {
    const key = renderKey(["onShellReady", "http://localhost/e/gzipped", "200", '{"state":1}']);
    keepPage(key, `<style nonce="${NONCE}">${"p { margin: 0 }".repeat(500)}</style>${page("gzipped")}`, NONCE);
    for (const nonce of ["theFirstRequestsOwnNonce", "theSecondRequestsNonce!!"]) {
      const gzipped = keptPageGzipped(key, nonce);
      expect(zlib.gunzipSync(gzipped!).toString("utf8")).toBe(keptPage(key, nonce));
      expect(zlib.gunzipSync(gzipped!).toString("utf8")).toContain(`<script nonce="${nonce}">gzipped</script>`);
    }
    expect(keptPageGzipped(renderKey(["not kept"]), "n".repeat(24))).toBeNull();
  });

  test("any difference in what was rendered is another key", () => {
    const parts = ["onShellReady", "http://localhost/e/two", "200", '{"state":2}'];
    keepPage(renderKey(parts), page("two"), NONCE);
    for (const changed of [0, 1, 2, 3]) {
      const other = parts.map((part, index) => (index === changed ? `${part}x` : part));
      expect(keptPage(renderKey(other), "n".repeat(24))).toBeNull();
    }
    // Parts are kept apart: moving text from one to the next is not the same render.
    expect(renderKey(["ab", "c"])).not.toBe(renderKey(["a", "bc"]));
  });

  test("a page rendered with a nonce too short to replace safely is not kept", () => {
    const key = renderKey(["short nonce"]);
    keepPage(key, '<script nonce="abc">x</script>', "abc");
    expect(keptPage(key, "n".repeat(24))).toBeNull();
  });

  test("the least recently used page is dropped past 200", () => {
    const keys = Array.from({ length: 201 }, (_, index) => renderKey(["lru", String(index)]));
    keys.slice(0, 200).forEach((key, index) => keepPage(key, page(`page ${index}`), NONCE));
    // Using the first makes the second the least recently used.
    expect(keptPage(keys[0]!, NONCE)).toBe(page("page 0"));
    keepPage(keys[200]!, page("page 200"), NONCE);
    expect(keptPage(keys[1]!, NONCE)).toBeNull();
    expect(keptPage(keys[0]!, NONCE)).toBe(page("page 0"));
    expect(keptPage(keys[200]!, NONCE)).toBe(page("page 200"));
  });
});
