// Processing and rendering before and after the clip review (docs/decisions/053), side by side in
// one run: node --import tsx bench/processing.bench.ts [--rounds=2] [--only=processing|render]
//
// CPU, not wall time: the machine is shared, so every ffmpeg and ffprobe run goes through
// /usr/bin/time (user + system seconds of the child, summed per step), and this process's own CPU
// (the clip's signals read in Node, sharp's attention on its key frames) is counted beside it.
//
// Processing a clip — the render bench's phone-like sources (8 s: landscape 1080p30, portrait
// 1080×1920, rotate-tagged 1080p60, silent 720p), each processed both ways in every round, the order
// alternating by round:
//   before — the rendition alone (normaliseVideo with no probe outputs and no framing: the same
//            ffmpeg command as before the change) and the poster at 1 s
//   after  — prepareClip (the same decode writes the small grey frames and the speech band; a
//            portrait clip's key frames are read for its subject first, and it is framed on it),
//            the signals read, and the poster from within the default trim
//   target: after ≤ 1.2 × before
// Rendering — a plan of 10 photos and the 4 clips at 1080p, rendered from nothing both ways: the
// photos' camera moves centred (before) and ending on their subjects (after). Target: no more CPU.
import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PieceStore } from "~/render/piece-store";
import type { PlanMedia, PlanTheme } from "~/render/plan";

const CACHE = path.join(os.tmpdir(), "chorus-processing-bench");
const args = new Set(process.argv.slice(2));
const rounds = Number([...args].find((a) => a.startsWith("--rounds="))?.slice(9) ?? 2);
const only = [...args].find((a) => a.startsWith("--only="))?.slice(7);

// ——— Every ffmpeg and ffprobe through /usr/bin/time, before the app reads its settings ———

const whichTool = (tool: string) => execFileSync("sh", ["-c", `command -v ${tool} || true`], { encoding: "utf8" }).trim();
const realTools = {
  ffmpeg: process.env.FFMPEG_PATH || whichTool("ffmpeg"),
  ffprobe: process.env.FFPROBE_PATH || whichTool("ffprobe"),
};
if (!realTools.ffmpeg || !realTools.ffprobe)
  throw new Error("This bench needs ffmpeg and ffprobe on PATH, or FFMPEG_PATH and FFPROBE_PATH.");
const LOG = path.join(CACHE, `cpu-${process.pid}.log`);
await mkdir(CACHE, { recursive: true });
for (const [tool, real] of Object.entries(realTools)) {
  const wrapper = path.join(CACHE, `${tool}-timed-${process.pid}`);
  await writeFile(wrapper, `#!/bin/sh\nexec /usr/bin/time -a -o "${LOG}" -f "%U %S" "${real}" "$@"\n`);
  await chmod(wrapper, 0o755);
  process.env[tool === "ffmpeg" ? "FFMPEG_PATH" : "FFPROBE_PATH"] = wrapper;
}

const { BUILT_IN_THEMES } = await import("~/domain/built-in-themes");
const { prepareClip } = await import("~/media/clip-review.server");
const { photoRendition, videoPoster } = await import("~/media/images.server");
const { normaliseVideo } = await import("~/media/normalise-video.server");
const { planRender } = await import("~/render/plan");
const { runRender } = await import("~/render/run.server");
const { MESSAGES, NAMES } = await import("./bench-server");

/** CPU seconds of the ffmpeg and ffprobe runs logged since the last call, and how many there were. */
let logged = 0;
async function childCpu() {
  const lines = (await readFile(LOG, "utf8").catch(() => "")).split("\n").filter((line) => /^\d+(\.\d+)? \d+(\.\d+)?$/.test(line.trim()));
  const fresh = lines.slice(logged);
  logged = lines.length;
  return { seconds: fresh.reduce((sum, line) => sum + line.split(" ").reduce((a, b) => a + Number(b), 0), 0), runs: fresh.length };
}

/** Runs `work`, with the CPU its ffmpeg children and this process spent on it. */
async function cpuOf<T>(work: () => Promise<T>) {
  await childCpu();
  const own = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(own);
  const children = await childCpu();
  return { result, children: children.seconds, runs: children.runs, node: (user + system) / 1e6 };
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );
const ffmpeg = (argv: string[]) => execFileSync(realTools.ffmpeg, ["-hide_banner", "-v", "error", "-y", ...argv]);

// ——— Sources: the render bench's phone-like clips and photos ———

const SHAPES = [
  { name: "landscape 1080p30", width: 1920, height: 1080, fps: 30, audio: true },
  { name: "portrait 1080×1920", width: 1080, height: 1920, fps: 30, audio: true },
  { name: "rotated 1080p60", width: 1920, height: 1080, fps: 60, audio: true, rotate: 90 },
  { name: "silent 720p", width: 1280, height: 720, fps: 30, audio: false },
] as const;

async function sourceClip(shape: (typeof SHAPES)[number]) {
  const file = path.join(CACHE, `${shape.name.replace(/\W+/g, "-")}.mp4`);
  if (await exists(file)) return file;
  ffmpeg([
    ...["-f", "lavfi", "-i", `testsrc2=size=${shape.width}x${shape.height}:rate=${shape.fps}:duration=8`],
    ...(shape.audio ? ["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=8"] : []),
    ...["-vf", "noise=alls=4:allf=t"],
    ...(shape.audio ? ["-af", "volume='0.6+0.4*sin(2*PI*t*3)':eval=frame", "-c:a", "aac"] : []),
    ...["-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p"],
    ...("rotate" in shape ? ["-metadata:s:v:0", `rotate=${shape.rotate}`] : []),
    file,
  ]);
  return file;
}

async function sourcePhoto(i: number) {
  const file = path.join(CACHE, `photo-${i}.png`);
  if (await exists(file)) return file;
  const [w, h] = i % 2 ? [3024, 4032] : [4032, 3024];
  ffmpeg([
    "-f",
    "lavfi",
    "-i",
    `mandelbrot=size=${w / 4}x${h / 4}:start_scale=${0.5 + i * 0.3}`,
    "-frames:v",
    "1",
    "-vf",
    `scale=${w}:${h}`,
    file,
  ]);
  return file;
}

// ——— Processing a clip, both ways ———

async function processBefore(source: string, work: string) {
  const rendition = path.join(work, "before.mp4");
  const probe = await normaliseVideo(source, rendition);
  await videoPoster(rendition, path.join(work, "before-poster.jpg"));
  return {
    rendition,
    duration: probe.duration ?? 8,
    trimStart: 0,
    trimEnd: null as number | null,
    focus: null as { x: number; y: number } | null,
  };
}

async function processAfter(source: string, work: string) {
  const rendition = path.join(work, "after.mp4");
  const { review, focus } = await prepareClip(source, rendition, { workDir: work });
  await videoPoster(rendition, path.join(work, "after-poster.jpg"), { kept: review });
  return { rendition, duration: 8, trimStart: review.trimStart, trimEnd: review.trimEnd, focus, advice: review.advice };
}

async function benchProcessing() {
  console.log("\nProcessing a clip (CPU seconds: ffmpeg and ffprobe children + this process)");
  const totals = { before: { children: 0, node: 0 }, after: { children: 0, node: 0 } };
  const renditions: Record<string, Awaited<ReturnType<typeof processAfter>>> = {};
  for (const shape of SHAPES) {
    const source = await sourceClip(shape);
    const work = path.join(CACHE, `work-${process.pid}`);
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const figures = { before: [] as number[], after: [] as number[], beforeNode: [] as number[], afterNode: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? (["after", "before"] as const) : (["before", "after"] as const);
      for (const way of order) {
        const measured = await cpuOf(() => (way === "before" ? processBefore(source, work) : processAfter(source, work)));
        figures[way].push(measured.children);
        figures[way === "before" ? "beforeNode" : "afterNode"].push(measured.node);
        if (way === "after") renditions[shape.name] = { ...(measured.result as Awaited<ReturnType<typeof processAfter>>) };
      }
    }
    // Kept for the render: the after rendition of this shape.
    const kept = path.join(CACHE, `rendition-${shape.name.replace(/\W+/g, "-")}.mp4`);
    execFileSync("cp", [renditions[shape.name]!.rendition, kept]);
    renditions[shape.name]!.rendition = kept;
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const [before, after] = [mean(figures.before), mean(figures.after)];
    const [beforeNode, afterNode] = [mean(figures.beforeNode), mean(figures.afterNode)];
    totals.before.children += before;
    totals.after.children += after;
    totals.before.node += beforeNode;
    totals.after.node += afterNode;
    console.log(
      `  ${shape.name.padEnd(20)} before ${figures.before.map((s) => s.toFixed(2)).join(", ")} s (+${beforeNode.toFixed(2)} s node)` +
        `   after ${figures.after.map((s) => s.toFixed(2)).join(", ")} s (+${afterNode.toFixed(2)} s node)` +
        `   ${((after + afterNode) / (before + beforeNode)).toFixed(3)} ×`,
    );
    await rm(work, { recursive: true, force: true });
  }
  const ratio = (totals.after.children + totals.after.node) / (totals.before.children + totals.before.node);
  console.log(
    `  all four: before ${totals.before.children.toFixed(2)} + ${totals.before.node.toFixed(2)} s, after ${totals.after.children.toFixed(2)} + ` +
      `${totals.after.node.toFixed(2)} s: ${ratio.toFixed(3)} × (target ≤ 1.2)`,
  );
  return renditions;
}

// ——— A render from nothing, both ways ———

function diskStore(dir: string): PieceStore {
  return {
    async has(key) {
      return exists(path.join(dir, key, "frames"));
    },
    async get(key) {
      const folder = path.join(dir, key);
      if (!(await exists(path.join(folder, "frames")))) return null;
      const names = (await import("node:fs/promises")).readdir(folder);
      const files: Record<string, string> = {};
      for (const name of await names) if (name !== "frames") files[path.parse(name).name] = path.join(folder, name);
      return { files, frames: Number(await readFile(path.join(folder, "frames"), "utf8")) };
    },
    async put(key, _kind, files, frames) {
      const folder = path.join(dir, key);
      await mkdir(folder, { recursive: true });
      const stored: Record<string, string> = {};
      for (const [name, file] of Object.entries(files)) {
        stored[name] = path.join(folder, `${name}${path.extname(file)}`);
        await (await import("node:fs/promises")).rename(file, stored[name]!);
      }
      await writeFile(path.join(folder, "frames"), String(frames));
      return { files: stored, frames };
    },
  };
}

async function benchRender(clips: Record<string, Awaited<ReturnType<typeof processAfter>>>) {
  console.log("\nRendering 10 photos and 4 clips at 1080p from nothing (CPU seconds of its ffmpeg children)");
  const photos: { id: string; file: string; focus: { x: number; y: number } | null }[] = [];
  for (let i = 0; i < 10; i++) {
    const rendition = path.join(CACHE, `photo-${i}.rendition.jpg`);
    const made = await photoRendition(await sourcePhoto(i), rendition);
    photos.push({ id: `photo-${i}`, file: rendition, focus: made.focus });
  }
  const clipItems = Object.entries(clips).map(([name, clip]) => ({ id: name, ...clip }));
  const files = new Map<string, string>([
    ...photos.map((p) => [p.id, p.file] as const),
    ...clipItems.map((c) => [c.id, c.rendition] as const),
  ]);
  const theme = BUILT_IN_THEMES.filter((t) => !t.isCollage).map((t) => ({ id: t.slug, ...t, scenes: t.scenes ?? [] }) as PlanTheme)[0]!;
  const media = (withFocus: boolean): PlanMedia[] =>
    [...photos.map((p) => ({ ...p, kind: "photo" as const })), ...clipItems.map((c) => ({ ...c, kind: "video" as const }))].map(
      (item, i) => ({
        id: item.id,
        kind: item.kind,
        status: "ready",
        renditionKey: item.id,
        durationSeconds: item.kind === "video" ? 8 : null,
        trimStart: "trimStart" in item ? item.trimStart : 0,
        trimEnd: "trimEnd" in item ? item.trimEnd : null,
        caption: MESSAGES[i % MESSAGES.length]!,
        contributorName: NAMES[i % NAMES.length]!,
        hidden: false,
        archived: false,
        position: i * 2 + (item.kind === "video" ? 1 : 0),
        hasAudio: item.kind === "video" && item.id !== "silent 720p",
        focus: withFocus && item.kind === "photo" ? item.focus : null,
      }),
    );
  const sourcePath = async (key: string) => files.get(key)!;
  const results: Record<string, number[]> = { before: [], after: [] };
  for (let round = 0; round < rounds; round++) {
    for (const way of round % 2 ? (["after", "before"] as const) : (["before", "after"] as const)) {
      const plan = planRender({
        intro: { heading: "Ana's birthday", subheading: "From all of us" },
        outro: { heading: "With love from", subheading: "Bo, Cy and Dee" },
        theme,
        media: media(way === "after"),
        track: null,
        resolution: "1080p",
      });
      const dir = path.join(CACHE, `render-${process.pid}-${way}-${round}`);
      await rm(dir, { recursive: true, force: true });
      const measured = await cpuOf(() =>
        runRender(plan, {
          store: diskStore(path.join(dir, "store")),
          sourcePath,
          workDir: path.join(dir, "work"),
          output: path.join(dir, "out.mp4"),
        }),
      );
      results[way]!.push(measured.children);
      console.log(
        `  ${way.padEnd(7)} round ${round + 1}: ${measured.children.toFixed(1)} s in ${measured.runs} ffmpeg runs, ${plan.durationSeconds.toFixed(1)} s of video` +
          ` (photo moves: ${plan.segments.flatMap((s) => (s.kind === "photo" ? [s.motion] : [])).join(" ")})`,
      );
      await rm(dir, { recursive: true, force: true });
    }
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`  → after / before: ${(mean(results.after!) / mean(results.before!)).toFixed(3)} × (target ≤ 1)`);
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");
console.log(`Processing bench — ${realTools.ffmpeg}, ${os.cpus().length} cores, load average ${load()}, ${rounds} rounds`);
const clips = only === "render" ? null : await benchProcessing();
if (only !== "processing") {
  const renditions = clips ?? (await benchProcessing());
  await benchRender(renditions);
}
console.log(`\nLoad average at the end: ${load()}`);
await rm(LOG, { force: true });
