// Render benchmark: node --import tsx bench/render.bench.ts [--long-plan] [--only=720p|1080p] [--grainy] [--ladder]
//
// The reference job: 20 clips of 8 s — landscape, portrait, rotated, some without sound —
// and 10 photos, intro, outro, a text box on every item, 0.5 s crossfades and music: about 190 s.
// Everything goes through the app's own code (normalised renditions, app/render/plan.ts,
// app/render/run.server.ts with a piece store on disk), without the database or the web server.
//
// Printed for 720p and 1080p, each next to its baseline (one plain libx264 veryfast encode of the
// same length and frame size, run in the same process before and after the renders, and averaged):
//   publish      — every piece prepared ahead (as the app does after each change):
//                  the join only                                         target ≤ 0.8 × baseline
//   full render  — nothing stored (e.g. after a theme change)            target ≤ 3.2 × (720p), ≤ 2.2 × (1080p)
//   one caption  — re-render after one caption changed                   target ≤ 0.3 × baseline
//   theme change — another theme, everything of the first stored: title cards, captioned parts,
//                  the crossfades beside the cards (and, with the music moved, the soundtrack)
//                                                                         target ≤ 0.5 × baseline
//   peak memory  — the whole process tree (node + ffmpeg children)       target ≤ 1 GB
// Then the published video's HLS ladder (docs/decisions/036), three ways on the same video: from
// the MP4 (decoded and encoded whole, as before rung pieces), from rung pieces the ladder job makes,
// and from rung pieces prepared ahead (the ladder job only joins them); with what making the rung
// pieces ahead cost, off the publish path. --ladder leaves out the full, caption and theme renders.
// --long-plan adds a 600-clip plan of synthetic 1.2 s clips at 720p: it must render, with peak
// memory flat in the number of clips (compared with a 60-clip plan of the same clips).
// The clips carry at least as much detail as a phone's: re-encoded at CRF 20 without the renditions'
// cap, a landscape one takes ~29 Mbit/s at 1080p, where a phone records 1080p30 at ~17 Mbit/s.
// --grainy makes them from heavy fresh noise instead (~113 Mbit/s at CRF 20, 6–7× what a phone
// records): a stress case for the encoder, kept to compare with earlier figures.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { BUILT_IN_THEMES } from "~/domain/built-in-themes";
import { ffmpegPath } from "~/media/ffmpeg-paths.server";
import { photoRendition } from "~/media/images.server";
import { RENDITION_DEFAULTS, normaliseArgs, normaliseVideo } from "~/media/normalise-video.server";
import type { MediaProbe } from "~/media/probe.server";
import { playlistSegments } from "~/render/hls-playlists";
import { ladderRungs, rungFiles } from "~/render/ladder";
import type { PieceStore } from "~/render/piece-store";
import { planRender, type PlanMedia, type PlanTheme, type RenderPlan, type Resolution } from "~/render/plan";
import { prepareRender } from "~/render/prepare.server";
import { runRender } from "~/render/run.server";
import { MESSAGES, NAMES, measure, x264Baseline } from "./bench-server";

const run = promisify(execFile);
const args = new Set(process.argv.slice(2));
const only = [...args].find((a) => a.startsWith("--only="))?.slice(7) as Resolution | undefined;
const grainy = args.has("--grainy");
const ladderOnly = args.has("--ladder");
/** Strength of the fresh noise laid over the moving test picture in every frame. */
const NOISE = grainy ? 12 : 4;
const CACHE = path.join(os.tmpdir(), "chorus-render-bench");
const SOURCES = path.join(CACHE, "sources");
const MUSIC_SECONDS = 240;

const ffmpeg = (argv: string[]) => run(ffmpegPath(), ["-hide_banner", "-v", "error", "-y", ...argv], { maxBuffer: 1 << 24 });

// ——— Sources: phone-like clips and photos, made once and kept in the temp folder ———

type ClipShape = { name: string; width: number; height: number; rotate?: number; audio: boolean; fps: number };

function clipShapes(): ClipShape[] {
  const shapes: ClipShape[] = [];
  for (let i = 0; i < 20; i++) {
    const kind = i % 4;
    if (kind === 0) shapes.push({ name: `clip-${i}`, width: 1920, height: 1080, audio: true, fps: 30 });
    else if (kind === 1) shapes.push({ name: `clip-${i}`, width: 1080, height: 1920, audio: true, fps: 30 });
    else if (kind === 2) shapes.push({ name: `clip-${i}`, width: 1920, height: 1080, rotate: 90, audio: i % 3 !== 0, fps: 60 });
    else shapes.push({ name: `clip-${i}`, width: 1280, height: 720, audio: false, fps: 30 });
  }
  return shapes;
}

async function exists(file: string) {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function makeSourceClip(shape: ClipShape, seconds: number, file: string) {
  // Moving, textured picture (so x264 has real work) and a voice-like tone that comes and goes.
  await ffmpeg([
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${shape.width}x${shape.height}:rate=${shape.fps}:duration=${seconds}`,
    ...(shape.audio ? ["-f", "lavfi", "-i", `sine=frequency=220:sample_rate=48000:duration=${seconds}`] : []),
    "-vf",
    `noise=alls=${NOISE}:allf=t`,
    ...(shape.audio ? ["-af", "volume='0.6+0.4*sin(2*PI*t*3)':eval=frame", "-c:a", "aac"] : []),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-crf",
    "18",
    "-pix_fmt",
    "yuv420p",
    ...(shape.rotate ? ["-metadata:s:v:0", `rotate=${shape.rotate}`] : []),
    file,
  ]);
}

// Renditions are made again whenever the app's rendition settings change.
const renditionSettings = createHash("sha256")
  .update(
    JSON.stringify(
      normaliseArgs({
        input: "in.mp4",
        output: "out.mp4",
        source: { video: { index: 0, displayWidth: 1920, displayHeight: 1080 }, audio: { index: 1 } } as MediaProbe,
        duration: 8,
        frame: RENDITION_DEFAULTS,
        fps: RENDITION_DEFAULTS.fps,
      }),
    ),
  )
  .digest("hex")
  .slice(0, 8);

async function renditionsFor(count: number, seconds: number, label: string, shapes = clipShapes()) {
  const dir = path.join(SOURCES, `${label}-${renditionSettings}`);
  await mkdir(dir, { recursive: true });
  const items: { id: string; file: string; kind: "video" | "photo"; duration: number | null; hasAudio: boolean }[] = [];
  for (let i = 0; i < count; i++) {
    const shape = shapes[i % shapes.length]!;
    const rendition = path.join(dir, `${shape.name}-${i}.rendition.mp4`);
    if (!(await exists(rendition))) {
      const source = path.join(dir, `${shape.name}-${i}.source.mp4`);
      await makeSourceClip(shape, seconds, source);
      await normaliseVideo(source, rendition);
      await rm(source, { force: true });
    }
    items.push({ id: `${label}-clip-${i}`, file: rendition, kind: "video", duration: seconds, hasAudio: shape.audio });
  }
  return items;
}

async function photoRenditions(count: number) {
  const dir = path.join(SOURCES, "photos");
  await mkdir(dir, { recursive: true });
  const items: { id: string; file: string; kind: "photo"; duration: null; hasAudio: false }[] = [];
  for (let i = 0; i < count; i++) {
    const rendition = path.join(dir, `photo-${i}.rendition.jpg`);
    if (!(await exists(rendition))) {
      const source = path.join(dir, `photo-${i}.source.png`);
      const [w, h] = i % 2 ? [3024, 4032] : [4032, 3024];
      await ffmpeg([
        "-f",
        "lavfi",
        "-i",
        `mandelbrot=size=${w / 4}x${h / 4}:start_scale=${0.5 + i * 0.3}`,
        "-frames:v",
        "1",
        "-vf",
        `scale=${w}:${h}`,
        source,
      ]);
      await photoRendition(source, rendition);
      await rm(source, { force: true });
    }
    items.push({ id: `photo-${i}`, file: rendition, kind: "photo", duration: null, hasAudio: false });
  }
  return items;
}

async function music() {
  const file = path.join(SOURCES, "music.m4a");
  if (!(await exists(file))) {
    await mkdir(SOURCES, { recursive: true });
    await ffmpeg([
      "-f",
      "lavfi",
      "-i",
      `aevalsrc='0.2*sin(2*PI*(220+20*floor(t/2))*t)+0.1*sin(2*PI*330*t)':s=48000:d=${MUSIC_SECONDS}`,
      "-ac",
      "2",
      "-c:a",
      "aac",
      "-b:a",
      "128k",
      file,
    ]);
  }
  return file;
}

// ——— The app's plan, and a piece store on disk ———

/** The built-in themes without collage, in their order: the first is the reference job's. */
function otherThemes(): PlanTheme[] {
  return BUILT_IN_THEMES.filter((t) => !t.isCollage).map(
    (theme) => ({ id: theme.slug, ...theme, scenes: theme.scenes ?? [] }) as PlanTheme,
  );
}

const themeOf = () => otherThemes()[0]!;

function mediaOf(items: { id: string; kind: "video" | "photo"; duration: number | null; hasAudio: boolean }[], captionChange?: string) {
  return items.map<PlanMedia>((item, i) => ({
    id: item.id,
    kind: item.kind,
    status: "ready",
    renditionKey: item.id,
    durationSeconds: item.duration,
    trimStart: 0,
    trimEnd: null,
    caption: i === 3 && captionChange ? captionChange : MESSAGES[i % MESSAGES.length]!,
    contributorName: NAMES[i % NAMES.length]!,
    hidden: false,
    archived: false,
    position: i,
    hasAudio: item.hasAudio,
  }));
}

function diskStore(dir: string): PieceStore {
  return {
    async has(key) {
      return ((await readdir(path.join(dir, key)).catch(() => null))?.length ?? 0) > 0;
    },
    async get(key) {
      const folder = path.join(dir, key);
      const names = await readdir(folder).catch(() => null);
      if (!names?.length) return null;
      const files: Record<string, string> = {};
      for (const name of names) if (name !== "frames") files[path.parse(name).name] = path.join(folder, name);
      return { files, frames: Number(await readFile(path.join(folder, "frames"), "utf8").catch(() => "0")) };
    },
    async put(key, _kind, files, frames) {
      const folder = path.join(dir, key);
      await mkdir(folder, { recursive: true });
      const stored: Record<string, string> = {};
      for (const [name, file] of Object.entries(files)) {
        stored[name] = path.join(folder, `${name}${path.extname(file)}`);
        await rename(file, stored[name]!);
      }
      await (await import("node:fs/promises")).writeFile(path.join(folder, "frames"), String(frames));
      return { files: stored, frames };
    },
  };
}

async function benchResolution(resolution: Resolution, items: Awaited<ReturnType<typeof renditionsFor>>, musicFile: string) {
  // A folder of this run's own: two people measuring at once on a shared machine share only the sources.
  const dir = path.join(CACHE, `run-${resolution}-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const files = new Map(items.map((i) => [i.id, i.file]));
  const sourcePath = async (key: string) => (key === "music" ? musicFile : files.get(key)!);
  const track = { id: "music", renditionKey: "music", durationSeconds: MUSIC_SECONDS, startSeconds: 4, fadeOutSeconds: 4, volume: 0.8 };
  const planOf = (captionChange?: string, changes: { theme?: PlanTheme; track?: typeof track } = {}) =>
    planRender({
      intro: { heading: "Ana's birthday", subheading: "From all of us, with love" },
      outro: { heading: "With love from", subheading: "Bo, Cy, Dee and 17 others" },
      theme: changes.theme ?? themeOf(),
      media: mediaOf(items, captionChange),
      track: changes.track ?? track,
      resolution,
    });
  const plan = planOf();
  console.log(
    `\n${resolution}: ${plan.segments.length} scenes, ${plan.transitions.length} crossfades, ${plan.durationSeconds.toFixed(1)} s`,
  );
  // The baseline runs before and after the renders; ratios are to the mean of the two, so a machine
  // that slows down or speeds up during the run moves both sides alike.
  const before = await x264Baseline(plan.profile, plan.durationSeconds, dir);
  if (ladderOnly) {
    const aheadStore = diskStore(path.join(dir, "store-ahead"));
    await prepareRender(plan, { store: aheadStore, sourcePath });
    const publish = await measure("publish (prepared ahead)", () =>
      runRender(plan, { store: aheadStore, sourcePath, workDir: path.join(dir, "work-publish"), output: path.join(dir, "publish.mp4") }),
    );
    await benchLadder(plan, aheadStore, publish.result.output, publish.seconds, before.seconds, dir);
    await rm(dir, { recursive: true, force: true });
    return;
  }

  const full = await measure("full render, nothing stored", () =>
    runRender(plan, {
      store: diskStore(path.join(dir, "store-full")),
      sourcePath,
      workDir: path.join(dir, "work-full"),
      output: path.join(dir, "full.mp4"),
    }),
  );
  const changed = planOf("A new caption, written after the first render.");
  const caption = await measure("re-render after one caption", () =>
    runRender(changed, {
      store: diskStore(path.join(dir, "store-full")),
      sourcePath,
      workDir: path.join(dir, "work-caption"),
      output: path.join(dir, "caption.mp4"),
    }),
  );

  // Another theme chosen with everything of the first stored: its title cards, the captioned parts
  // and the crossfades beside the cards are made again (docs/decisions/038). Then a third theme
  // and the music started elsewhere: the soundtrack too.
  const [, second, third] = otherThemes();
  const theme = await measure("theme change", () =>
    runRender(planOf(undefined, { theme: second }), {
      store: diskStore(path.join(dir, "store-full")),
      sourcePath,
      workDir: path.join(dir, "work-theme"),
      output: path.join(dir, "theme.mp4"),
    }),
  );
  const themeAndMusic = await measure("theme and music change", () =>
    runRender(planOf(undefined, { theme: third, track: { ...track, startSeconds: 20 } }), {
      store: diskStore(path.join(dir, "store-full")),
      sourcePath,
      workDir: path.join(dir, "work-theme-music"),
      output: path.join(dir, "theme-music.mp4"),
    }),
  );

  // Pieces prepared as contributions arrived (not timed: that happens before anyone publishes).
  const aheadStore = diskStore(path.join(dir, "store-ahead"));
  await prepareRender(plan, { store: aheadStore, sourcePath });
  const publish = await measure("publish (prepared ahead)", () =>
    runRender(plan, { store: aheadStore, sourcePath, workDir: path.join(dir, "work-publish"), output: path.join(dir, "publish.mp4") }),
  );
  const after = await x264Baseline(plan.profile, plan.durationSeconds, dir);
  const base = { seconds: (before.seconds + after.seconds) / 2, peak: Math.max(before.peak, after.peak) };
  console.log(`  baseline: mean ${base.seconds.toFixed(1)} s`);
  const ratio = (m: { seconds: number }) => (m.seconds / base.seconds).toFixed(2);
  console.log(`  → publish ${ratio(publish)} × baseline (target ≤ 0.8)`);
  console.log(`  → full render ${ratio(full)} × baseline (target ≤ ${resolution === "720p" ? "3.2" : "2.2"})`);
  console.log(`  → one caption ${ratio(caption)} × baseline (target ≤ 0.3); pieces re-rendered: ${caption.result.piecesRendered}`);
  const pieces = (m: typeof theme) => `pieces re-rendered: ${m.result.piecesRendered}, reused: ${m.result.piecesReused}`;
  console.log(`  → theme change ${ratio(theme)} × baseline (target ≤ 0.5); ${pieces(theme)}`);
  console.log(`  → theme and music change ${ratio(themeAndMusic)} × baseline (target ≤ 0.5); ${pieces(themeAndMusic)}`);
  const peak = Math.max(full.peak, publish.peak, caption.peak, theme.peak, themeAndMusic.peak);
  console.log(`  → peak memory ${(peak / 1024 ** 3).toFixed(2)} GB (target ≤ 1 GB)`);
  await benchLadder(plan, aheadStore, publish.result.output, publish.seconds, base.seconds, dir);
  await rm(dir, { recursive: true, force: true });
}

/**
 * The published video's ladder three ways, side by side: from the MP4; from rung pieces the ladder
 * job makes first; from rung pieces made ahead. Each is what the ladder job spends between the
 * publish and the ladder's record, less storing its files (a copy on local disk).
 */
async function benchLadder(plan: RenderPlan, store: PieceStore, mp4: string, publishSeconds: number, baseline: number, dir: string) {
  const { makeLadder } = await import("~/render/ladder.server");
  const { rungPiecesFor } = await import("~/render/rung-pieces.server");
  const folder = async (name: string) => {
    const made = path.join(dir, name);
    await rm(made, { recursive: true, force: true });
    await mkdir(made, { recursive: true });
    return made;
  };
  console.log(
    `  ladder (${ladderRungs(plan.profile.width, plan.profile.height)
      .map((r) => r.name)
      .join(", ")}):`,
  );
  const out = { mp4: await folder("hls-mp4"), job: await folder("hls-job"), ahead: await folder("hls-ahead") };
  const fromMp4 = await measure("ladder from the MP4", () => makeLadder(mp4, out.mp4));
  let piecesSeconds = 0;
  const fromPieces = async (into: string) => {
    const started = performance.now();
    const pieces = await rungPiecesFor(plan, { store, workDir: path.join(dir, "work-rungs") });
    piecesSeconds = (performance.now() - started) / 1000;
    return { pieces, ladder: await makeLadder(mp4, into, { pieces: pieces.files }) };
  };
  const inJob = await measure("ladder, rung pieces made in it", () => fromPieces(out.job));
  const madeSeconds = piecesSeconds;
  const ahead = await measure("ladder, rung pieces made ahead", () => fromPieces(out.ahead));
  const ratio = (seconds: number) => `${(seconds / baseline).toFixed(2)} × baseline`;
  console.log(`  → publish to ladder, from the MP4: ${fromMp4.seconds.toFixed(1)} s (${ratio(fromMp4.seconds)})`);
  console.log(
    `  → publish to ladder, rung pieces made in the ladder job: ${inJob.seconds.toFixed(1)} s (${ratio(inJob.seconds)}; ` +
      `${inJob.result.pieces.made} rung pieces made in ${madeSeconds.toFixed(1)} s, joined in ${(inJob.seconds - madeSeconds).toFixed(1)} s)`,
  );
  console.log(
    `  → publish to ladder, rung pieces made ahead: ${ahead.seconds.toFixed(1)} s (${ratio(ahead.seconds)}; ${ahead.result.pieces.reused} reused), ` +
      `the publish itself ${publishSeconds.toFixed(1)} s; making them ahead took ${madeSeconds.toFixed(1)} s, off the publish path`,
  );
  // The rungs as players see them: the same segments in every rung, and what each costs a link.
  for (const [name, made, where] of [
    ["from the MP4", fromMp4.result, out.mp4],
    ["from rung pieces", ahead.result.ladder, out.ahead],
  ] as const) {
    const durations = await Promise.all(
      made.rungs.map(async (rung) =>
        playlistSegments(await readFile(path.join(where, rungFiles(rung.name).playlist), "utf8")).map((s) => s.seconds),
      ),
    );
    const aligned = durations.every(
      (list) => list.length === durations[0]!.length && list.every((s, i) => Math.abs(s - durations[0]![i]!) < 0.01),
    );
    const rates = made.rungs.map((r) => `${r.name} ${(r.averageBandwidth / 1e6).toFixed(2)}/${(r.bandwidth / 1e6).toFixed(2)}`).join(", ");
    console.log(
      `    ${name}: ${durations[0]!.length} segments, ${aligned ? "the same" : "NOT the same"} in every rung; Mbit/s average/peak: ${rates}`,
    );
  }
}

async function benchLongPlan(musicFile: string) {
  console.log("\nLong plans (720p, synthetic 1.2 s clips, no photos): memory must stay flat");
  const shapes: ClipShape[] = [{ name: "short", width: 640, height: 360, audio: true, fps: 30 }];
  const clips = await renditionsFor(1, 1.2, grainy ? "short-grainy" : "short-phone", shapes);
  for (const count of [60, 600]) {
    const dir = path.join(CACHE, `long-${count}`);
    await rm(dir, { recursive: true, force: true });
    const items = Array.from({ length: count }, (_, i) => ({ ...clips[0]!, id: `short-${i}` }));
    const plan = planRender({
      intro: { heading: "Long", subheading: "plan" },
      outro: { heading: "The", subheading: "end" },
      theme: themeOf(),
      media: mediaOf(items),
      track: { id: "music", renditionKey: "music", durationSeconds: MUSIC_SECONDS, startSeconds: 0, fadeOutSeconds: 3, volume: 0.8 },
      resolution: "720p",
    });
    const sourcePath = async (key: string) => (key === "music" ? musicFile : clips[0]!.file);
    const result = await measure(`${count} clips (${plan.durationSeconds.toFixed(0)} s of video)`, () =>
      runRender(plan, {
        store: diskStore(path.join(dir, "store")),
        sourcePath,
        workDir: path.join(dir, "work"),
        output: path.join(dir, "out.mp4"),
      }),
    );
    const size = (await stat(result.result.output)).size;
    console.log(`    output ${(size / 1024 ** 2).toFixed(0)} MB`);
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`Render benchmark — ffmpeg ${ffmpegPath()}, ${os.cpus().length} cores, sources cached in ${SOURCES}`);
const musicFile = await music();
const clips = await renditionsFor(20, 8, grainy ? "reference-grainy" : "reference-phone");
const photos = await photoRenditions(10);
// Photos spread among the clips, as people's contributions come.
const items = clips.flatMap((clip, i) => (i % 2 === 1 && photos[Math.floor(i / 2)] ? [clip, photos[Math.floor(i / 2)]!] : [clip]));
for (const resolution of ["720p", "1080p"] as const) if (!only || only === resolution) await benchResolution(resolution, items, musicFile);
if (args.has("--long-plan")) await benchLongPlan(musicFile);
