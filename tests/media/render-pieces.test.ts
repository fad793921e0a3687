import { access, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { probeMedia } from "~/media/probe.server";
import { runFfmpeg, runFfprobe } from "~/media/run.server";
import { type PieceContext, countVideoFrames, renderSegmentPieces, renderTransition } from "~/render/pieces";
import { videoMaxKbits } from "~/render/pieces/encoding";
import type { SegmentFiles } from "~/render/pieces/segment.server";
import { mixTimelineAudio } from "~/render/pieces/timeline-audio.server";
import { mp4VideoSampleCount } from "~/render/pieces/verify.server";
import { type OutputProfile, type ScenePart, type Segment, type ThemeStyle, bodyFrames } from "~/render/plan";
import { dominant, frameAt, makeClip, makeQuartersImage, makeTempDir, makeTwoColourClip, pixelAt } from "./support/media-fixtures";

// A small frame keeps every ffmpeg run short; the plan's own profile would be 1280x720.
const profile: OutputProfile = { resolution: "720p", width: 320, height: 180, fps: 30, encoderVersion: 1 };
const publicDir = path.resolve("public");

const style: ThemeStyle = {
  introUrl: "/themes/test/intro.jpg",
  outroUrl: "/themes/test/outro.jpg",
  fontUrl: "/fonts/themes/Fraunces-SemiBold.ttf",
  fontColor: "#ffffff",
  fontSize: 52,
  fontLineSpacing: 1.2,
  textBoxColor: "#1d1b26cc",
  textBoxScale: 1,
};

let dir: Awaited<ReturnType<typeof makeTempDir>>;
const files: Record<string, string> = {};
let ctxCount = 0;

/** A fresh work folder per piece, renditions looked up by their storage key in `files`. */
function context(changes: Partial<PieceContext> = {}): PieceContext {
  ctxCount += 1;
  return {
    profile,
    workDir: dir.path(`piece-${ctxCount}`),
    sourcePath: async (key) => files[key] ?? Promise.reject(new Error(`no file for ${key}`)),
    assetPath: (url) => (url.startsWith("/fonts/") ? path.join(publicDir, url) : files.background!),
    ...changes,
  };
}

const base = { key: "k", index: 1, startFrame: 0, style, parts: [] };

/** The segment with its own frames as one part, under the key "body": captioned when it has words. */
function withBody<S extends Segment>(segment: S): S {
  const kind = segment.kind === "title" ? "card" : segment.textBox ? "caption" : "plain";
  return { ...segment, parts: [{ kind, key: "body", start: segment.headFrames, end: segment.frames - segment.tailFrames }] };
}

/** The one part of a segment made by `withBody`. */
const bodyOf = (pieces: SegmentFiles) => pieces.parts.body!;

const clipSegment = (changes: Partial<Extract<Segment, { kind: "clip" }>> = {}): Segment =>
  withBody({
    ...base,
    kind: "clip",
    mediaId: "m1",
    source: "clip",
    inSeconds: 0,
    sourceFrames: 60,
    hasAudio: true,
    textBox: { name: "Bo", message: "Happy birthday!" },
    frames: 60,
    headFrames: 15,
    tailFrames: 15,
    ...changes,
  } as Segment);

/** Mean level in dB of a stretch of a file's sound, after an optional filter picks out a band. */
async function meanVolume(file: string, start: number, seconds: number, band = "anull") {
  const { stderrTail } = await runFfmpeg([
    "-hide_banner",
    "-nostats",
    "-ss",
    String(start),
    "-t",
    String(seconds),
    "-i",
    file,
    "-af",
    `${band},volumedetect`,
    "-f",
    "null",
    "-",
  ]);
  return Number(/mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderrTail.join("\n"))?.[1] ?? Number.NaN);
}

async function wavSamples(file: string) {
  const { stdout } = await runFfprobe([
    "-v",
    "error",
    "-show_entries",
    "stream=duration_ts,sample_rate,channels,codec_name",
    "-of",
    "json",
    file,
  ]);
  return (JSON.parse(stdout) as { streams: { duration_ts: number; sample_rate: string; channels: number; codec_name: string }[] })
    .streams[0]!;
}

/** Peak signal-to-noise ratio of two pictures of the same size, in dB (higher: more alike). */
async function psnr(a: string, b: string) {
  const { stderrTail } = await runFfmpeg(["-hide_banner", "-nostats", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"]);
  const value = /average:(inf|[\d.]+)/.exec(stderrTail.join("\n"))?.[1];
  return value === "inf" ? Number.POSITIVE_INFINITY : Number(value);
}

async function frameHashes(video: string) {
  const { stdout } = await runFfmpeg(["-hide_banner", "-v", "error", "-i", video, "-map", "0:v", "-f", "framemd5", "-"]);
  return stdout
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(",").at(-1)!.trim());
}

beforeAll(async () => {
  dir = await makeTempDir("render-pieces");
  files.clip = await makeClip(dir.path("clip.mp4"), { width: 640, height: 360, seconds: 2 });
  files.shortClip = await makeClip(dir.path("short.mp4"), { width: 320, height: 180, seconds: 1 });
  files.photo = await makeQuartersImage(dir.path("photo.jpg"), 320, 180);
  files.texture = dir.path("texture.jpg");
  await runFfmpeg([
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=320x180:rate=1",
    "-frames:v",
    "1",
    files.texture,
  ]);
  // A soft white spot right of centre on a dark ground, losslessly stored.
  files.spot = dir.path("spot.png");
  await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180"><rect width="320" height="180" fill="#202020"/><circle cx="240" cy="90" r="12" fill="#ffffff"/></svg>',
    ),
  )
    .blur(3)
    .png()
    .toFile(files.spot);
  files.background = dir.path("background.jpg");
  await sharp({ create: { width: 640, height: 360, channels: 3, background: "#c08040" } })
    .jpeg()
    .toFile(files.background);
});
afterAll(() => dir.remove());

describe("a clip segment", () => {
  test("is decoded into an exact body, lossless head and tail, and its sound", async () => {
    const written: number[] = [];
    const segment = clipSegment();
    const pieces = await renderSegmentPieces(segment, context({ onFrames: (n) => written.push(n) }));

    const body = await probeMedia(bodyOf(pieces));
    expect(body.video).toMatchObject({ codec: "h264", width: 320, height: 180, pixelFormat: "yuv420p", frameRate: 30 });
    expect(body.audio).toBeNull();
    expect(await countVideoFrames(bodyOf(pieces))).toBe(bodyFrames(segment));
    // The pieces' own index, read without ffprobe, says the same.
    for (const file of [bodyOf(pieces), pieces.head!, pieces.tail!])
      expect(await mp4VideoSampleCount(file)).toBe(await countVideoFrames(file));
    for (const [file, frames] of [
      [pieces.head!, 15],
      [pieces.tail!, 15],
    ] as const) {
      expect((await probeMedia(file)).video).toMatchObject({ codec: "utvideo", width: 320, height: 180, pixelFormat: "yuv420p" });
      expect(await countVideoFrames(file)).toBe(frames);
    }
    // The whole item's sound, head and tail included: 2 s at 48 kHz stereo, from a mono 44.1 kHz clip.
    expect(await wavSamples(pieces.audio!)).toMatchObject({
      codec_name: "pcm_s16le",
      sample_rate: "48000",
      channels: 2,
      duration_ts: 96_000,
    });
    expect(await meanVolume(pieces.audio!, 0.2, 1.5)).toBeGreaterThan(-30);
    expect(pieces.frames).toBe(60);
    expect(written.at(-1)).toBe(60);
    expect(written).toEqual([...written].sort((a, b) => a - b));
  });

  test("shorter than its segment, holds its last frame and falls silent", async () => {
    // The held second is the lossless tail here, so equal frames hash alike.
    const segment = clipSegment({ source: "shortClip", sourceFrames: 30, frames: 60, headFrames: 0, tailFrames: 30, textBox: null });
    const pieces = await renderSegmentPieces(segment, context());
    expect(pieces.head).toBeNull();
    expect(new Set(await frameHashes(bodyOf(pieces))).size).toBeGreaterThan(20); // the test pattern moves
    const held = await frameHashes(pieces.tail!);
    expect(held).toHaveLength(30);
    expect(new Set(held).size).toBe(1);
    expect((await wavSamples(pieces.audio!)).duration_ts).toBe(96_000);
    expect(await meanVolume(pieces.audio!, 0.1, 0.8)).toBeGreaterThan(-30);
    expect(await meanVolume(pieces.audio!, 1.1, 0.8)).toBeLessThan(-80);
  });

  test("its tail, decoded from a seek of its own, holds exactly the frames one decode of the whole item gives there", async () => {
    // The whole item as one lossless snippet (no parts, no tail) is one decode from the start.
    const whole = await renderSegmentPieces({ ...clipSegment({ headFrames: 60, tailFrames: 0, textBox: null }), parts: [] }, context());
    const scene = await renderSegmentPieces(clipSegment({ textBox: null }), context());
    const wholeHashes = await frameHashes(whole.head!);
    expect(wholeHashes).toHaveLength(60);
    expect(await frameHashes(scene.tail!)).toEqual(wholeHashes.slice(45));
    expect(await frameHashes(scene.head!)).toEqual(wholeHashes.slice(0, 15));
  });

  test("starts at its trim point", async () => {
    // Lossless snippets compare exactly: the whole clip's last second against the trimmed clip's start.
    const whole = await renderSegmentPieces(clipSegment({ headFrames: 0, tailFrames: 30, textBox: null }), context());
    const trimmed = await renderSegmentPieces(
      clipSegment({ inSeconds: 1, sourceFrames: 30, frames: 30, headFrames: 10, tailFrames: 0, textBox: null }),
      context(),
    );
    const wholeHashes = await frameHashes(whole.tail!);
    const trimmedHashes = await frameHashes(trimmed.head!);
    expect(trimmedHashes).toHaveLength(10);
    expect(trimmedHashes).toEqual(wholeHashes.slice(0, 10));
  });
});

describe("a scene's parts", () => {
  // Red on the left half, blue on the right; the box covers the middle of the lower third.
  const parts: ScenePart[] = [
    { kind: "caption", key: "caption", start: 15, end: 45 },
    { kind: "plain", key: "plain", start: 45, end: 75 },
  ];
  const split = () => ({ ...clipSegment({ source: "twoColour", sourceFrames: 90, frames: 90 }), parts });

  test("show the box in the captioned part only, and decoded alone are the frames of the whole run", async () => {
    files.twoColour = await makeTwoColourClip(dir.path("two-colour.mp4"), { width: 320, height: 180, seconds: 3 });
    const whole = await renderSegmentPieces(split(), context());
    expect(whole.frames).toBe(90);
    expect(await countVideoFrames(whole.parts.caption!)).toBe(30);
    expect(await countVideoFrames(whole.parts.plain!)).toBe(30);
    const inCaption = await frameAt(whole.parts.caption!, 15, dir.path("part-caption-15.png"));
    const inPlain = await frameAt(whole.parts.plain!, 15, dir.path("part-plain-15.png"));
    expect(dominant(await pixelAt(inCaption, 150, 150))).toBe("black");
    expect(dominant(await pixelAt(inPlain, 150, 150))).toBe("red");
    // Neither the head nor the tail carries the box.
    expect(dominant(await pixelAt(await frameAt(whole.tail!, 7, dir.path("part-tail-7.png")), 150, 150))).toBe("red");

    // Each part alone (another caption, a part gone from the store): a seek near its frames, and
    // the same pictures, so the part is what the whole run wrote. The whole run encodes both parts
    // with one encoder, which sees past the cut, so the last frames before it may differ by a
    // rounding; a frame off by one would differ by far more than that.
    for (const part of parts) {
      const alone = await renderSegmentPieces(split(), context(), { scene: false, parts: [part] });
      expect(alone).toMatchObject({ head: null, tail: null, audio: null, frames: 30 });
      expect(await frameHashes(alone.parts[part.key]!)).toHaveLength(30);
      expect(await psnr(alone.parts[part.key]!, whole.parts[part.key]!)).toBeGreaterThan(40);
    }
  });

  test("from one run each have their planned frames, start at 0 on a key frame, and join with parts made alone", async () => {
    const moving: ScenePart[] = [
      { kind: "caption", key: "caption", start: 15, end: 30 },
      { kind: "plain", key: "plain", start: 30, end: 45 },
    ];
    const segment = { ...clipSegment(), parts: moving };
    const whole = await renderSegmentPieces(segment, context());
    const alone = await renderSegmentPieces(segment, context(), { scene: false, parts: moving });
    const plainAlone = await renderSegmentPieces(segment, context(), { scene: false, parts: [moving[1]!] });
    for (const part of moving) {
      const file = whole.parts[part.key]!;
      expect(await mp4VideoSampleCount(file)).toBe(part.end - part.start);
      const [first] = await packets(file);
      expect(first).toEqual({ pts: 0, key: true });
      // The same stream description as a part made alone: the concat demuxer keeps the first file's.
      expect(await streamHeader(file)).toEqual(await streamHeader(plainAlone.parts.plain!));
      expect(await psnr(alone.parts[part.key]!, file)).toBeGreaterThan(40);
    }
    expect(await psnr(plainAlone.parts.plain!, whole.parts.plain!)).toBeGreaterThan(40);

    // The captioned part of the whole run, then a plain part made alone: joined as a render joins them.
    const list = dir.path("mixed-parts.txt");
    await writeFile(list, `file '${whole.parts.caption}'\nfile '${plainAlone.parts.plain}'\n`);
    const joined = dir.path("mixed-parts.mp4");
    await runFfmpeg(["-hide_banner", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", list, "-c", "copy", joined]);
    expect(await countVideoFrames(joined)).toBe(30);
    const decoded = await runFfmpeg(["-hide_banner", "-v", "error", "-i", joined, "-f", "framemd5", "-"]);
    expect(decoded.stdout.split("\n").filter((l) => l && !l.startsWith("#"))).toHaveLength(30);
    expect(decoded.stderrTail.join("").trim()).toBe("");
  });
});

/** A video's packets in file order: presentation time (in its time base) and whether each is a key frame. */
async function packets(video: string) {
  const { stdout } = await runFfprobe([
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-show_entries",
    "packet=pts,flags",
    "-of",
    "csv=p=0",
    video,
  ]);
  return stdout
    .trim()
    .split("\n")
    .map((line) => ({ pts: Number(line.split(",")[0]), key: line.split(",")[1]!.startsWith("K") }));
}

/** What a decoder is told of a video stream before its first frame: codec, profile, level, time base, SPS and PPS. */
async function streamHeader(video: string) {
  const { stdout } = await runFfprobe([
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-show_data_hash",
    "md5",
    "-show_entries",
    "stream=codec_name,profile,level,pix_fmt,width,height,time_base,r_frame_rate,extradata_hash",
    "-of",
    "json",
    video,
  ]);
  return (JSON.parse(stdout) as { streams: unknown[] }).streams[0];
}

describe("still segments", () => {
  const photoSegment = (source: string, motion: "zoom-in" | "pan-left", changes: Partial<Segment> = {}): Segment =>
    withBody({
      ...base,
      kind: "photo",
      mediaId: "p",
      source,
      motion,
      textBox: { name: "Ana", message: "Love you" },
      frames: 45,
      headFrames: 15,
      tailFrames: 0,
      ...changes,
    } as Segment);

  test.each(["zoom-in", "pan-left"] as const)("a photo moves (%s) a little every frame and is silent", async (motion) => {
    const pieces = await renderSegmentPieces(photoSegment("texture", motion), context());
    expect(await countVideoFrames(bodyOf(pieces))).toBe(30);
    expect(await countVideoFrames(pieces.head!)).toBe(15);
    expect(pieces.tail).toBeNull();
    const hashes = await frameHashes(pieces.head!);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(await meanVolume(pieces.audio!, 0, 1.5)).toBeLessThan(-80);
    expect((await wavSamples(pieces.audio!)).duration_ts).toBe(72_000);
  });

  // A bright spot's centre of brightness, frame by frame, in a lossless head: a crop that steps a
  // whole pixel at a time moves it 0 or 1 pixel a frame; a glide moves it by the same fraction.
  test.each([
    ["pan-left", 0.727],
    ["zoom-in", 0.205],
  ] as const)("a photo's %s glides: its picture moves by equal sub-pixel steps every frame", async (motion, step) => {
    const segment = photoSegment("spot", motion, { frames: 45, headFrames: 20, textBox: null });
    const pieces = await renderSegmentPieces(segment, context());
    const gray = dir.path(`spot-${motion}.gray`);
    await runFfmpeg(["-hide_banner", "-v", "error", "-y", "-i", pieces.head!, "-f", "rawvideo", "-pix_fmt", "gray", gray]);
    const bytes = await readFile(gray);
    const { width, height } = profile;
    expect(bytes.length).toBe(20 * width * height);
    const centres = Array.from({ length: 20 }, (_, f) => {
      let [sum, weighted] = [0, 0];
      for (let i = 0; i < width * height; i++) {
        const v = Math.max(0, bytes[f * width * height + i]! - 60);
        sum += v;
        weighted += v * (i % width);
      }
      return weighted / sum;
    });
    const steps = centres.slice(1).map((c, i) => c - centres[i]!);
    const mean = steps.reduce((a, b) => a + b, 0) / steps.length;
    expect(mean).toBeGreaterThan(step * 0.85);
    expect(mean).toBeLessThan(step * 1.15);
    for (const d of steps) expect(Math.abs(d - mean)).toBeLessThan(0.05);
  });

  test("a photo's tail, made in its own chain, carries on the move from the body's last frame", async () => {
    const segment = photoSegment("texture", "zoom-in", { frames: 60, headFrames: 15, tailFrames: 15 });
    const pieces = await renderSegmentPieces(segment, context());
    expect(await countVideoFrames(bodyOf(pieces))).toBe(30);
    expect(await countVideoFrames(pieces.tail!)).toBe(15);
    const tail = await frameHashes(pieces.tail!);
    expect(new Set(tail).size).toBe(15);
    const lastOfBody = await frameAt(bodyOf(pieces), 29, dir.path("photo-body-29.png"));
    const firstOfTail = await frameAt(pieces.tail!, 0, dir.path("photo-tail-0.png"));
    const firstOfHead = await frameAt(pieces.head!, 0, dir.path("photo-head-0.png"));
    // Across the cut, one step of a slow zoom (the body is lossy, the tail not: ~26 dB here); the
    // move's start, where a tail that began the move again would be, is far off (~13 dB).
    const acrossTheCut = await psnr(lastOfBody, firstOfTail);
    expect(acrossTheCut).toBeGreaterThan(22);
    expect(await psnr(firstOfHead, firstOfTail)).toBeLessThan(acrossTheCut - 8);
  });

  test("a photo carries its caption box in the lower third, faded in and out at the ends of its part", async () => {
    const pieces = await renderSegmentPieces(photoSegment("photo", "zoom-in"), context());
    // The box sits in the lower third, dark like the theme's; the top corners show the photo.
    const frame = await frameAt(bodyOf(pieces), 15, dir.path("photo-frame.png"));
    expect(dominant(await pixelAt(frame, 160, 150))).toBe("black");
    expect(dominant(await pixelAt(frame, 20, 20))).toBe("red");
    expect(dominant(await pixelAt(frame, 300, 20))).toBe("green");
    for (const n of [0, 29]) {
      const faded = await frameAt(bodyOf(pieces), n, dir.path(`photo-frame-${n}.png`));
      expect(dominant(await pixelAt(faded, 160, 150))).not.toBe("black");
    }
  });

  test("stops when cancelled and leaves no pieces behind", async () => {
    const controller = new AbortController();
    const ctx = context({ signal: controller.signal });
    const rendering = renderSegmentPieces(clipSegment(), ctx);
    controller.abort();
    await expect(rendering).rejects.toThrow();
    await expect(access(path.join(ctx.workDir, "caption-0.mp4"))).rejects.toThrow();
  });

  test("the intro fades in from black and the outro ends on black", async () => {
    const title = (role: "intro" | "outro"): Segment =>
      withBody({
        ...base,
        kind: "title",
        role,
        heading: "Ana turns 30",
        subheading: "from all of us",
        backgroundUrl: style.introUrl,
        frames: 45,
        headFrames: 0,
        tailFrames: 0,
      } as Segment);
    const intro = await renderSegmentPieces(title("intro"), context());
    const outro = await renderSegmentPieces(title("outro"), context());
    expect(await countVideoFrames(bodyOf(intro))).toBe(45);
    expect(dominant(await pixelAt(await frameAt(bodyOf(intro), 0, dir.path("intro-0.png")), 10, 10))).toBe("black");
    const lit = await pixelAt(await frameAt(bodyOf(intro), 40, dir.path("intro-40.png")), 10, 10);
    expect(lit[0]).toBeGreaterThan(120); // the orange background
    expect(dominant(await pixelAt(await frameAt(bodyOf(outro), 44, dir.path("outro-44.png")), 10, 10))).toBe("black");
    expect(await meanVolume(intro.audio!, 0, 1.4)).toBeLessThan(-80);
  });
});

describe("a transition", () => {
  test("crossfades the tail into the head over exactly its frames", async () => {
    const colour = async (name: string, c: string) => {
      const file = dir.path(`${name}.mkv`);
      await runFfmpeg([
        "-hide_banner",
        "-v",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        `color=c=${c}:s=320x180:r=30:d=0.5`,
        "-c:v",
        "ffv1",
        "-pix_fmt",
        "yuv420p",
        file,
      ]);
      return file;
    };
    const written: number[] = [];
    const red = await colour("red", "red");
    // Not an MP4: no index to read, so the count falls back to ffprobe.
    expect(await mp4VideoSampleCount(red)).toBeNull();
    const output = await renderTransition(red, await colour("blue", "blue"), 15, { ...context(), onFrames: (n) => written.push(n) });
    expect(await countVideoFrames(output)).toBe(15);
    expect((await probeMedia(output)).video).toMatchObject({
      codec: "h264",
      width: 320,
      height: 180,
      frameRate: 30,
      pixelFormat: "yuv420p",
    });
    const reds = [];
    for (const n of [0, 7, 14]) reds.push((await pixelAt(await frameAt(output, n, dir.path(`x-${n}.png`)), 160, 90))[0]);
    // 1/16 of the way in, half way, 15/16: never a whole frame of either side.
    expect(reds[0]).toBeGreaterThan(215);
    expect(reds[1]).toBeGreaterThan(100);
    expect(reds[1]).toBeLessThan(155);
    expect(reds[2]).toBeLessThan(40);
    expect(written.at(-1)).toBe(15);
  });
});

describe("the output's bitrate", () => {
  test("a grainy clip's body and a crossfade of it keep to the cap for the frame size", async () => {
    // Fresh noise in every frame: at CRF 21 alone each piece would take many times the cap.
    files.grainy = dir.path("grainy.mp4");
    await runFfmpeg([
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=320x180:rate=30:duration=4",
      "-vf",
      "noise=alls=40:allf=t",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-qp",
      "10",
      files.grainy,
    ]);
    const segment = clipSegment({ source: "grainy", hasAudio: false, sourceFrames: 120, frames: 120, textBox: null });
    const pieces = await renderSegmentPieces(segment, context());
    const crossfade = await renderTransition(pieces.tail!, pieces.head!, 15, context());
    const cap = videoMaxKbits(profile) * 1000;
    const bits = async (file: string) => (await stat(file)).size * 8;
    // The rate control's buffer (two seconds at the cap) may be spent once on top of the cap.
    const allowed = (frames: number) => (cap * frames) / profile.fps + 2 * cap;
    expect(await bits(bodyOf(pieces))).toBeLessThanOrEqual(allowed(bodyFrames(segment)));
    expect(await bits(crossfade)).toBeLessThanOrEqual(allowed(15));
    // The cap is the limit that was met, not an idle one: the body spends most of what it may.
    expect(await bits(bodyOf(pieces))).toBeGreaterThan((cap * bodyFrames(segment)) / profile.fps / 2);
  });
});

describe("the clips' timeline", () => {
  /** A 48 kHz stereo WAV whose every sample is `value`. */
  async function constantWav(name: string, frames: number, value: number) {
    const data = Buffer.alloc(frames * 4);
    for (let i = 0; i < frames * 2; i += 1) data.writeInt16LE(value, i * 2);
    const header = Buffer.alloc(44);
    header.write("RIFFxxxxWAVEfmt ", 0, "latin1");
    header.writeUInt32LE(36 + data.length, 4);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(2, 22);
    header.writeUInt32LE(48_000, 24);
    header.writeUInt32LE(192_000, 28);
    header.writeUInt16LE(4, 32);
    header.writeUInt16LE(16, 34);
    header.write("data", 36, "latin1");
    header.writeUInt32LE(data.length, 40);
    await writeFile(dir.path(name), Buffer.concat([header, data]));
    return dir.path(name);
  }

  test("overlapping segments crossfade without a dip or a bump, and a short file ends in silence", async () => {
    const a = await constantWav("a.wav", 48_000, 10_000);
    const b = await constantWav("b.wav", 20_000, 10_000); // shorter than its place on the timeline
    const output = dir.path("timeline.wav");
    await mixTimelineAudio(
      [
        { file: a, start: 0, length: 48_000, fadeIn: 0, fadeOut: 16_000 },
        { file: b, start: 32_000, length: 48_000, fadeIn: 16_000, fadeOut: 0 },
      ],
      80_000,
      output,
    );
    expect(await wavSamples(output)).toMatchObject({ codec_name: "pcm_s16le", sample_rate: "48000", channels: 2, duration_ts: 80_000 });
    const wav = await readFile(output);
    const at = (frame: number) => wav.readInt16LE(44 + frame * 4); // left channel
    for (const frame of [0, 31_999, 32_000, 40_000, 47_999, 51_999]) expect(Math.abs(at(frame) - 10_000)).toBeLessThanOrEqual(1);
    expect(at(52_000)).toBe(0);
    expect(at(79_999)).toBe(0);
  });
});
