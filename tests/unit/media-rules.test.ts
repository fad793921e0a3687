import { describe, expect, test } from "vitest";
import {
  actionForChanges,
  checkTrim,
  decideClaim,
  decideMediaAccess,
  formatDuration,
  moveInOrder,
  upscaleFactorFor,
  type MediaAction,
  type MediaCaller,
  type MediaFacts,
} from "~/domain/media-rules";

const caller = (over: Partial<MediaCaller> = {}): MediaCaller => ({
  role: "public",
  userId: null,
  holdsUploadToken: false,
  holdsPrivateKey: false,
  identified: true,
  ...over,
});
const item = (over: Partial<MediaFacts> = {}): MediaFacts => ({ uploaderId: null, purpose: "contribution", archived: false, ...over });
const ALL: MediaAction[] = [
  "view",
  "edit-details",
  "arrange",
  "archive",
  "restore",
  "duplicate",
  "retry",
  "regenerate",
  "upscale",
  "review-upscale",
  "revert",
  "edit-photo",
];
const allowed = (who: MediaCaller, what: MediaFacts) => ALL.filter((action) => decideMediaAccess(action, who, what).allowed);

describe("who may act on a media item (spec §7.2)", () => {
  test("the organiser (creator role, admins included) may do everything, archived items too", () => {
    expect(allowed(caller({ role: "creator", userId: "o" }), item())).toEqual(ALL);
    expect(allowed(caller({ role: "creator", userId: "o" }), item({ archived: true }))).toEqual(ALL);
  });

  test("staff with edit rights (an editor on someone else's Chorus) manage its items as the organiser does", () => {
    expect(allowed(caller({ userId: "e", editRights: true }), item())).toEqual(ALL);
    expect(allowed(caller({ userId: "e", editRights: true }), item({ archived: true }))).toEqual(ALL);
    expect(decideMediaAccess("arrange", caller({ userId: "e", editRights: false }), item())).toMatchObject({
      allowed: false,
      refusal: "not-found",
    });
  });

  test("the contributor with the item's upload token may reword it and take it back, nothing else", () => {
    expect(allowed(caller({ holdsUploadToken: true }), item())).toEqual(["view", "edit-details", "archive"]);
    const arrange = decideMediaAccess("arrange", caller({ holdsUploadToken: true }), item());
    expect(arrange).toEqual({ allowed: false, relation: "uploader", refusal: "forbidden" });
  });

  test("the account that uploaded or claimed the item counts as its contributor", () => {
    expect(allowed(caller({ userId: "u1" }), item({ uploaderId: "u1" }))).toEqual(["view", "edit-details", "archive"]);
  });

  test("a wrong token or another account learns nothing: not found", () => {
    expect(decideMediaAccess("edit-details", caller({ userId: "u2" }), item({ uploaderId: "u1" }))).toMatchObject({
      allowed: false,
      refusal: "not-found",
    });
    expect(decideMediaAccess("archive", caller({ holdsUploadToken: false }), item())).toMatchObject({
      allowed: false,
      refusal: "not-found",
    });
  });

  test("someone with no credential at all is asked to log in, except when only looking", () => {
    const nobody = caller({ identified: false });
    expect(decideMediaAccess("archive", nobody, item())).toMatchObject({ refusal: "unauthorized" });
    expect(decideMediaAccess("view", nobody, item())).toMatchObject({ refusal: "not-found" });
  });

  test("the recipient's private key deletes their own thank-you video only", () => {
    const recipient = caller({ role: "recipient", holdsPrivateKey: true });
    expect(decideMediaAccess("archive", recipient, item({ purpose: "thank_you" }))).toMatchObject({ allowed: true, relation: "recipient" });
    expect(decideMediaAccess("edit-details", recipient, item({ purpose: "thank_you" }))).toMatchObject({
      allowed: false,
      refusal: "forbidden",
    });
    expect(decideMediaAccess("archive", recipient, item())).toMatchObject({ allowed: false, refusal: "not-found" });
  });

  test("an archived item is gone for its contributor", () => {
    expect(decideMediaAccess("edit-details", caller({ holdsUploadToken: true }), item({ archived: true }))).toMatchObject({
      refusal: "not-found",
    });
  });

  test("a change of caption or name is wording; anything else arranges the montage", () => {
    expect(actionForChanges({ caption: "Hi" })).toBe("edit-details");
    expect(actionForChanges({ caption: "Hi", contributorName: "Bo" })).toBe("edit-details");
    expect(actionForChanges({ caption: "Hi", hidden: true })).toBe("arrange");
    expect(actionForChanges({ position: 0 })).toBe("arrange");
  });
});

describe("claiming uploads", () => {
  test("needs an account and the matching token; an item of another account is a conflict", () => {
    expect(decideClaim({ userId: null, holdsUploadToken: true, uploaderId: null })).toEqual({ allowed: false, refusal: "unauthorized" });
    expect(decideClaim({ userId: "u", holdsUploadToken: false, uploaderId: null })).toEqual({ allowed: false, refusal: "not-found" });
    expect(decideClaim({ userId: "u", holdsUploadToken: true, uploaderId: "v" })).toEqual({ allowed: false, refusal: "conflict" });
    expect(decideClaim({ userId: "u", holdsUploadToken: true, uploaderId: null })).toEqual({ allowed: true });
    expect(decideClaim({ userId: "u", holdsUploadToken: true, uploaderId: "u" })).toEqual({ allowed: true });
  });
});

describe("trimming a clip", () => {
  const clip = { kind: "video" as const, durationSeconds: 12, trimStart: 0, trimEnd: null };

  test("a trim inside the clip with at least a second kept is accepted", () => {
    expect(checkTrim({ trimStart: 2, trimEnd: 10 }, clip)).toEqual({ ok: true, trimStart: 2, trimEnd: 10 });
    expect(checkTrim({ trimStart: 11 }, clip)).toEqual({ ok: true, trimStart: 11, trimEnd: null });
    expect(checkTrim({ trimEnd: 12 }, clip)).toEqual({ ok: true, trimStart: 0, trimEnd: 12 });
  });

  test("the new values are checked together with the trim already set", () => {
    expect(checkTrim({ trimEnd: 3 }, { ...clip, trimStart: 5 })).toMatchObject({
      ok: false,
      errors: { trimStart: "The start must come before the end." },
    });
    expect(checkTrim({ trimEnd: null }, { ...clip, trimStart: 5, trimEnd: 8 })).toEqual({ ok: true, trimStart: 5, trimEnd: null });
  });

  test("refuses an end past the clip, a start after the end, and less than a second kept", () => {
    expect(checkTrim({ trimEnd: 12.5 }, clip)).toMatchObject({ ok: false, errors: { trimEnd: "The clip is only 12 s long." } });
    expect(checkTrim({ trimStart: 6, trimEnd: 6 }, clip)).toMatchObject({ ok: false, errors: { trimStart: expect.any(String) } });
    expect(checkTrim({ trimStart: 5, trimEnd: 5.5 }, clip)).toMatchObject({
      ok: false,
      errors: { trimEnd: "Keep at least 1 second of the clip." },
    });
    expect(checkTrim({ trimStart: 11.5 }, clip)).toMatchObject({ ok: false, errors: { trimEnd: expect.stringContaining("1 second") } });
    expect(checkTrim({ trimStart: -1 }, clip)).toMatchObject({ ok: false, errors: { trimStart: expect.any(String) } });
  });

  test("photos cannot be trimmed, nor clips whose length is not known yet", () => {
    expect(checkTrim({ trimStart: 1 }, { ...clip, kind: "photo" })).toEqual({
      ok: false,
      errors: { trimStart: "Only clips can be trimmed." },
    });
    expect(checkTrim({ trimEnd: 2 }, { ...clip, durationSeconds: null })).toMatchObject({
      ok: false,
      errors: { trimEnd: expect.stringContaining("still being processed") },
    });
  });
});

describe("upscale factor", () => {
  test("2× at least, enough to reach 1920 px on the long edge, never above 4×", () => {
    expect(upscaleFactorFor({ width: 1000, height: 800 })).toBe(2);
    expect(upscaleFactorFor({ width: 800, height: 600 })).toBeCloseTo(2.4);
    expect(upscaleFactorFor({ width: 300, height: 400 })).toBe(4);
  });
  test("photos already 1920 px on the long edge are not upscaled", () => {
    expect(upscaleFactorFor({ width: 1080, height: 1920 })).toBeNull();
    expect(upscaleFactorFor({ width: 4000, height: 3000 })).toBeNull();
  });
});

describe("montage order", () => {
  test("moving keeps everything else in order and positions are 0..n-1", () => {
    expect(moveInOrder(["a", "b", "c", "d"], "d", 1)).toEqual(["a", "d", "b", "c"]);
    expect(moveInOrder(["a", "b", "c", "d"], "a", 3)).toEqual(["b", "c", "d", "a"]);
  });
  test("targets beyond either end are clamped; unknown ids change nothing", () => {
    expect(moveInOrder(["a", "b", "c"], "a", 99)).toEqual(["b", "c", "a"]);
    expect(moveInOrder(["a", "b", "c"], "c", -4)).toEqual(["c", "a", "b"]);
    expect(moveInOrder(["a", "b"], "z", 0)).toEqual(["a", "b"]);
  });
});

describe("clip length on a card", () => {
  test("minutes and zero-padded seconds", () => {
    expect(formatDuration(12.2)).toBe("0:12");
    expect(formatDuration(65)).toBe("1:05");
    expect(formatDuration(3723)).toBe("1:02:03");
    expect(formatDuration(1.6)).toBe("0:02");
  });
});
