import { describe, expect, test } from "vitest";
import { z } from "zod";
import { isStorableText, unstorableTextPaths } from "~/domain/storable-text";
import { isApiError, parseWith, validateInput } from "~/lib/http.server";

describe("text the database cannot keep", () => {
  test("NUL and lone surrogates are refused; paired surrogates, accents and emoji are not", () => {
    expect(isStorableText("Ana 🎉 Müller – ok")).toBe(true);
    expect(isStorableText("a\u0000b")).toBe(false);
    expect(isStorableText("a\uD800")).toBe(false);
    expect(isStorableText("\uDC00a")).toBe(false);
    expect(isStorableText("\uDC00\uD800")).toBe(false);
  });

  test("names every place holding it: nested fields, array items, keys, the payload itself", () => {
    expect(unstorableTextPaths({ name: "Ana", caption: "x\u0000" })).toEqual(["caption"]);
    expect(unstorableTextPaths({ recipients: [{ firstName: "ok" }, { firstName: "\uD83D" }] })).toEqual(["recipients.1.firstName"]);
    expect(unstorableTextPaths({ edits: { "bad\u0000key": 1 } })).toEqual(["edits"]);
    expect(unstorableTextPaths("\u0000")).toEqual(["form"]);
    expect(unstorableTextPaths({ count: 3, on: true, nothing: null })).toEqual([]);
  });

  test("reads every value of a form, repeated fields and file names included", () => {
    const form = new FormData();
    form.append("prompts", "fine");
    form.append("prompts", "not\u0000fine");
    form.append("file", new File(["x"], "clip\u0000.mp4"));
    expect(unstorableTextPaths(form).sort()).toEqual(["file", "prompts"]);
  });

  test("a deeply nested payload is walked without exhausting the stack", () => {
    const deep = JSON.parse(`${"[".repeat(200_000)}"\\u0000"${"]".repeat(200_000)}`);
    expect(unstorableTextPaths(deep)).toEqual(["0.0.0.0.0.0.0.0"]);
  });

  test("the API's parsing answers 400 naming the field, before the schema runs", () => {
    const schema = z.object({ title: z.string().max(3) });
    try {
      parseWith(schema, { title: "far too long\u0000" });
      expect.unreachable();
    } catch (error) {
      expect(isApiError(error) && error.status).toBe(400);
      expect(isApiError(error) && error.fields).toEqual({ title: expect.stringContaining("cannot store") });
    }
    expect(validateInput(schema, { title: "ok" })).toMatchObject({ success: true, data: { title: "ok" } });
  });
});
