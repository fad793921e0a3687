import { describe, expect, test } from "vitest";
import { originalEntryName } from "~/services/media/originals-zip.server";

describe("names of originals in a zip", () => {
  test("each is numbered by its place, with the contributor's name and the file's own extension", () => {
    expect(originalEntryName(0, "Ana Silva", "IMG_0001.HEIC", "events/x/uploads/y")).toBe("001-Ana-Silva-IMG_0001.heic");
    expect(originalEntryName(11, "", "clip.mp4", "k")).toBe("012-clip.mp4");
  });
  test("accents are kept as plain letters; what a file system or a zip reader could misread is left out", () => {
    expect(originalEntryName(0, "José Álvarez", "été à la plage.jpg", "k")).toBe("001-Jose-Alvarez-ete-a-la-plage.jpg");
    expect(originalEntryName(1, "../..", "../../etc/passwd", "k.png")).toBe("002-file.png");
    expect(originalEntryName(1, "Bo", "../../etc/passwd.mov", "k")).toBe("002-Bo-etcpasswd.mov");
    expect(originalEntryName(2, "李雷", "照片.jpg", "k")).toBe("003-file.jpg");
    for (const name of [originalEntryName(3, "a/b\\c:d", 'x<>|?*"y.mov', "k")]) expect(name).toMatch(/^[\w.-]+$/);
  });
});
