import { writeFile } from "node:fs/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { UnreadableMediaError, probeMedia, rotationOf, summariseProbe } from "~/media/probe.server";
import { makeClip, makeTempDir, makeTone, markRotated } from "./support/media-fixtures";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  dir = await makeTempDir("probe");
});
afterAll(() => dir.remove());

describe("probing media files", () => {
  test("a rotate-tagged landscape recording is a portrait clip of 720×1280", async () => {
    const plain = await makeClip(dir.path("plain.mp4"), { width: 1280, height: 720, seconds: 1 });
    const probe = await probeMedia(await markRotated(plain, dir.path("portrait.mp4")));
    expect(probe.kind).toBe("video");
    expect(probe.video).toMatchObject({ codec: "h264", width: 1280, height: 720, displayWidth: 720, displayHeight: 1280, frameRate: 30 });
    expect([90, 270]).toContain(probe.video?.rotation);
    expect(probe.audio).toMatchObject({ codec: "aac", sampleRate: 44100, channels: 1 });
    expect(probe.duration).toBeCloseTo(1, 1);
    expect(probe.formatNames).toContain("mp4");
  });

  test("a clip without sound has no audio stream", async () => {
    const probe = await probeMedia(await makeClip(dir.path("silent.mp4"), { audio: false, seconds: 1 }));
    expect(probe.kind).toBe("video");
    expect(probe.audio).toBeNull();
    expect(probe.video?.rotation).toBe(0);
    expect(probe.size).toBeGreaterThan(0);
  });

  test("photos are images and sound files are audio", async () => {
    await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } })
      .jpeg()
      .toFile(dir.path("photo.jpg"));
    await sharp({ create: { width: 40, height: 30, channels: 4, background: "#33669980" } })
      .png()
      .toFile(dir.path("photo.png"));
    await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } })
      .webp()
      .toFile(dir.path("photo.webp"));
    for (const name of ["photo.jpg", "photo.png", "photo.webp"]) {
      const probe = await probeMedia(dir.path(name));
      expect(probe.kind, name).toBe("image");
      expect(probe.video).toMatchObject({ width: 40, height: 30 });
    }
    expect((await probeMedia(await makeTone(dir.path("tone.m4a")))).kind).toBe("audio");
  });

  test("a file ffprobe cannot read is an UnreadableMediaError with a message for people", async () => {
    await writeFile(dir.path("notes.mp4"), "shopping list: milk, eggs\n");
    const error = await probeMedia(dir.path("notes.mp4")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableMediaError);
    expect((error as Error).message).toBe("We could not read this file. It may be damaged or in a format we don't support.");
  });
});

describe("reading rotation", () => {
  test("the display matrix (counter-clockwise) and the rotate tag (clockwise) agree", () => {
    expect(rotationOf({ side_data_list: [{ side_data_type: "Display Matrix", rotation: -90 }] })).toBe(90);
    expect(rotationOf({ side_data_list: [{ side_data_type: "Display Matrix", rotation: 90 }] })).toBe(270);
    expect(rotationOf({ side_data_list: [{ side_data_type: "Display Matrix", rotation: "-180.00" }] })).toBe(180);
    expect(rotationOf({ tags: { rotate: "90" } })).toBe(90);
    expect(rotationOf({ tags: { rotate: "-90" } })).toBe(270);
    expect(rotationOf({ tags: { rotate: "90" }, side_data_list: [{ rotation: 90 }] })).toBe(270);
    expect(rotationOf({})).toBe(0);
  });

  test("ffprobe 4.x output (rotate tag, no side data) still gives the display size", () => {
    const probe = summariseProbe({
      format: { format_name: "mov,mp4,m4a,3gp,3g2,mj2", duration: "3.0", size: "1000" },
      streams: [
        {
          index: 0,
          codec_type: "video",
          codec_name: "hevc",
          width: 1920,
          height: 1080,
          avg_frame_rate: "30000/1001",
          duration: "3.0",
          tags: { rotate: "90" },
        },
      ],
    });
    expect(probe.video).toMatchObject({ rotation: 90, displayWidth: 1080, displayHeight: 1920 });
    expect(probe.video?.frameRate).toBeCloseTo(29.97, 2);
    expect(probe.kind).toBe("video");
  });

  test("anamorphic pixels widen the display size", () => {
    const probe = summariseProbe({
      format: { format_name: "avi", duration: "2.0" },
      streams: [
        { index: 0, codec_type: "video", codec_name: "mpeg4", width: 352, height: 288, sample_aspect_ratio: "16:11", r_frame_rate: "25/1" },
      ],
    });
    expect(probe.video).toMatchObject({ width: 352, displayWidth: 512, displayHeight: 288, sampleAspectRatio: 16 / 11 });
  });
});
