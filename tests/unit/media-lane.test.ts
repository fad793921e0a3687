import { describe, expect, test } from "vitest";
import { mediaLaneFor } from "~/domain/media-lane";

const MB = 1024 ** 2;
const limits = { smallMaxBytes: 40 * MB, maxPhotoBytes: 50 * MB };

describe("mediaLaneFor", () => {
  test("sends photos to the fast lane, even above the small-clip size", () => {
    expect(mediaLaneFor({ mimeType: "image/jpeg", sizeBytes: 3 * MB }, limits)).toBe("media-small");
    expect(mediaLaneFor({ mimeType: "image/heic", sizeBytes: 45 * MB }, limits)).toBe("media-small");
  });

  test("sends clips by size: short ones to the fast lane, long ones to the slow one", () => {
    expect(mediaLaneFor({ mimeType: "video/mp4", sizeBytes: 8 * MB }, limits)).toBe("media-small");
    expect(mediaLaneFor({ mimeType: "video/quicktime", sizeBytes: 40 * MB }, limits)).toBe("media-small");
    expect(mediaLaneFor({ mimeType: "video/quicktime", sizeBytes: 40 * MB + 1 }, limits)).toBe("media-large");
  });

  test("keeps a large file that only claims to be a photo out of the fast lane", () => {
    expect(mediaLaneFor({ mimeType: "image/jpeg", sizeBytes: 900 * MB }, limits)).toBe("media-large");
  });

  test("judges an undeclared type by size alone", () => {
    expect(mediaLaneFor({ mimeType: "application/octet-stream", sizeBytes: 2 * MB }, limits)).toBe("media-small");
    expect(mediaLaneFor({ mimeType: "application/octet-stream", sizeBytes: 400 * MB }, limits)).toBe("media-large");
  });
});
