// Running a render plan (docs/rendering.md "What follows"): each segment's pieces and each crossfade
// are separate ffmpeg jobs, at most two at a time, reused from the piece store when their key
// was rendered before; then one soundtrack job (also kept by key) and a join without
// re-encoding. Nothing here grows with the number of clips except lists of file names.

import { setMaxListeners } from "node:events";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pieceOnce } from "./piece-once.server";
import type { PieceStore, StoredPiece } from "./piece-store";
import { joinPieces, makePoster, segmentIsHeard, type PieceContext } from "./pieces";
import type { RenderPlan, Segment, Transition } from "./plan";
import { type KeepPiece, type SceneFound, lookUpScene, makeMissing, missingCount, sceneWork } from "./scene-pieces.server";
import { SLOT_PRIORITY, soundtrackPlace } from "./slots.server";
import { makeCrossfade, makeSoundtrack } from "./timeline-pieces.server";

export interface RenderProgress {
  /** 0–1 of the whole render's work. */
  fraction: number;
  framesDone: number;
  framesTotal: number;
  etaSeconds: number | null;
  piecesRendered: number;
  piecesReused: number;
}

export interface RunRenderOptions {
  store: PieceStore;
  /** A local path for a rendition's storage key. */
  sourcePath: (key: string) => Promise<string>;
  /** A local path for a track's storage key. */
  musicPath?: (key: string) => Promise<string>;
  /** The local path of a theme asset URL; public/ of the app unless given. */
  assetPath?: (url: string) => string;
  workDir: string;
  output: string;
  poster?: string;
  signal?: AbortSignal;
  onProgress?: (progress: RenderProgress) => void;
  /** Called for each piece that had to be rendered (not reused), with its key. */
  onPieceRendered?: (key: string, kind: string) => void;
}

export interface RenderResult {
  output: string;
  poster: string | null;
  piecesRendered: number;
  piecesReused: number;
  renderedKeys: string[];
  /** Seconds from the start at which each stage had finished (they overlap), for the logs and the benchmark. */
  finishedAt: { scenes: number; crossfades: number; soundtrack: number; join: number };
}

// Work is counted in output frames: a piece is worth its frames, the soundtrack and the join a
// share of the timeline each (they are fast: audio, and copying).
const SOUNDTRACK_SHARE = 0.06;
const JOIN_SHARE = 0.04;

/**
 * Renders the plan into `output` (MP4, faststart). Pieces already in the store are reused;
 * missing ones are rendered and stored. Abort with `signal`: running ffmpeg jobs are killed.
 */
export async function runRender(plan: RenderPlan, options: RunRenderOptions): Promise<RenderResult> {
  // One failed piece stops the others: no point encoding what will not be joined.
  const controller = new AbortController();
  // Every piece waiting for a render slot listens for the abort: many at once is expected.
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    return await render(plan, { ...options, signal: controller.signal });
  } catch (error) {
    controller.abort();
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", stop);
  }
}

async function render(plan: RenderPlan, options: RunRenderOptions): Promise<RenderResult> {
  const { store, signal } = options;
  await mkdir(options.workDir, { recursive: true });
  const context = (name: string): PieceContext => ({
    profile: plan.profile,
    workDir: path.join(options.workDir, name),
    sourcePath: options.sourcePath,
    assetPath: options.assetPath,
    signal,
  });

  // What is there already, and so how much work is left. Of a stored scene only what is still to
  // be made from it is fetched: its parts for the join, its head and tail for crossfades not
  // stored, its sound when the soundtrack is not and something of it is heard (after a theme or
  // caption change, parts alone).
  const transitionPieces = await Promise.all(plan.transitions.map((t) => store.get(t.key)));
  const storedSoundtrack = await store.get(plan.soundtrackKey);
  const crossfadeStored = new Map(plan.transitions.map((t, i) => [t.from, transitionPieces[i] !== null]));
  const heard = plan.segments.map(segmentIsHeard);
  const filesNeeded = (index: number) => [
    ...(crossfadeStored.get(index - 1) === false ? ["head"] : []),
    ...(crossfadeStored.get(index) === false ? ["tail"] : []),
    ...(storedSoundtrack || !heard[index] ? [] : ["audio"]),
  ];
  const scenesFound = await Promise.all(plan.segments.map((s, i) => lookUpScene(store, s, filesNeeded(i))));
  /** Whether the soundtrack is to be mixed and waits for this scene's sound to be made. */
  const soundWaitsFor = (index: number) => !storedSoundtrack && heard[index]! && !scenesFound[index]!.scene;
  const timeline = plan.totalFrames;
  const work =
    plan.segments.reduce((sum, s, i) => sum + sceneWork(s, scenesFound[i]!), 0) +
    plan.transitions.reduce((sum, t, i) => sum + (transitionPieces[i] ? 0 : t.frames), 0) +
    Math.ceil(timeline * ((storedSoundtrack ? 0 : SOUNDTRACK_SHARE) + JOIN_SHARE));
  const counts = { rendered: 0, reused: 0 };
  counts.reused =
    [...transitionPieces, storedSoundtrack].filter(Boolean).length +
    plan.segments.reduce((sum, s, i) => sum + s.parts.length + 1 - missingCount(scenesFound[i]!), 0);
  const renderedKeys: string[] = [];
  const started = Date.now();
  const running = new Map<string, number>();
  let finished = 0;
  const report = () => {
    const done = Math.min(work, finished + [...running.values()].reduce((a, b) => a + b, 0));
    const fraction = work === 0 ? 1 : done / work;
    const elapsed = (Date.now() - started) / 1000;
    options.onProgress?.({
      fraction,
      framesDone: Math.round(fraction * timeline),
      framesTotal: timeline,
      etaSeconds: fraction > 0.02 && fraction < 1 ? Math.round((elapsed / fraction) * (1 - fraction)) : fraction >= 1 ? 0 : null,
      piecesRendered: counts.rendered,
      piecesReused: counts.reused,
    });
  };
  const track = async <T>(id: string, weight: number, job: (onFrames: (frames: number) => void) => Promise<T>) => {
    running.set(id, 0);
    try {
      const result = await job((frames) => {
        running.set(id, Math.min(weight, frames));
        report();
      });
      finished += weight;
      return result;
    } finally {
      running.delete(id);
      report();
    }
  };
  report();

  /** A piece this render made: counted, reported, and stored for the next render with its timing. */
  const keep: KeepPiece = (key, kind, files, frames, timing) => {
    counts.rendered += 1;
    renderedKeys.push(key);
    options.onPieceRendered?.(key, kind);
    return store.put(key, kind, files, frames, timing);
  };
  /** Pieces another render or the render-ahead job made while this one waited for them: reused. */
  const reusedLater = (pieces: number, weight: number) => {
    if (pieces <= 0 && weight <= 0) return;
    counts.reused += pieces;
    finished += weight;
    report();
  };
  const madeElsewhere = <T>({ value, made }: { value: T; made: boolean }, weight: number) => {
    if (!made) reusedLater(1, weight);
    return value;
  };

  // A scene's missing pieces are made in one run, under the claim on its own key: whoever comes
  // second (another caption of the same clip, the render-ahead job) makes only what is still missing.
  const renderScene = (segment: Segment, files: readonly string[]) => {
    const missingAtStart = missingCount(scenesFound[segment.index]!);
    const complete = (found: SceneFound<StoredPiece>) => (missingCount(found) === 0 ? found : null);
    return pieceOnce(segment.key, {
      store,
      signal,
      priority: soundWaitsFor(segment.index) ? SLOT_PRIORITY.heardScene : SLOT_PRIORITY.scene,
      lookUp: async () => complete(await lookUpScene(store, segment, files)),
      make: async () => {
        const found = await lookUpScene(store, segment, files);
        const weight = sceneWork(segment, found);
        reusedLater(missingAtStart - missingCount(found), 0);
        const made = await track(segment.key, weight, (onFrames) =>
          makeMissing(segment, found, { ...context(`s-${segment.index}`), onFrames }, keep),
        );
        return { scene: found.scene ?? made.scene, parts: segment.parts.map((_, i) => found.parts[i] ?? made.parts[i]!) };
      },
    }).then(({ value, made }) => {
      if (!made) reusedLater(missingAtStart, sceneWork(segment, scenesFound[segment.index]!));
      return value as { scene: StoredPiece; parts: StoredPiece[] };
    });
  };

  // Every scene is queued at once, in timeline order: the slots keep two ffmpeg jobs running and the
  // next one starts the moment one ends. A crossfade is queued as soon as its two scenes are there,
  // ahead of the scenes not started, so only the last crossfades are left when the last scene ends.
  // The soundtrack starts once the sound of every scene that is heard is there: stored, or made by
  // the scene's job. Those jobs go first, so the photos and the title cards render beside it.
  const finishedAt = { scenes: 0, crossfades: 0, soundtrack: 0, join: 0 };
  const finish = (stage: keyof typeof finishedAt) => {
    finishedAt[stage] = (Date.now() - started) / 1000;
  };
  const segmentJobs = plan.segments.map((segment, i) => {
    const found = scenesFound[i]!;
    if (missingCount(found) > 0) return renderScene(segment, filesNeeded(i));
    return Promise.resolve(found as { scene: StoredPiece; parts: StoredPiece[] });
  });
  let scenesLeft = segmentJobs.length;
  for (const job of segmentJobs) job.then(() => (scenesLeft -= 1)).catch(() => undefined);
  const allSegments = Promise.all(segmentJobs).finally(() => finish("scenes"));

  type SceneOf = Awaited<(typeof segmentJobs)[number]>;
  /** A heard scene's own piece: its sound is what the soundtrack mixes. */
  type Heard = Pick<SceneOf, "scene">;
  const renderCrossfade = (transition: Transition, from: SceneOf, to: SceneOf) =>
    pieceOnce(transition.key, {
      store,
      signal,
      priority: SLOT_PRIORITY.crossfade,
      lookUp: () => store.get(transition.key),
      make: () =>
        track(transition.key, transition.frames, (onFrames) =>
          makeCrossfade(transition, from.scene.files.tail, to.scene.files.head, { ...context(`t-${transition.index}`), onFrames }, keep),
        ),
    }).then((outcome) => madeElsewhere(outcome, transition.frames));
  const allTransitions = Promise.all(
    plan.transitions.map(async (transition, i) => {
      const stored = transitionPieces[i];
      if (stored) return stored;
      const [from, to] = await Promise.all([segmentJobs[transition.from]!, segmentJobs[transition.from + 1]!]);
      return renderCrossfade(transition, from, to);
    }),
  ).finally(() => finish("crossfades"));

  // One soundtrack for the whole timeline: clip audio crossfaded like the picture, music under it.
  // Kept by its own key: a caption or theme change leaves the sound as it was. Made once, like
  // every piece: a render-ahead job mixing it already is waited for.
  const soundtrackOnce = (segments: (Heard | null)[]) =>
    pieceOnce(plan.soundtrackKey, {
      store,
      signal,
      ...soundtrackPlace(scenesLeft),
      lookUp: () => store.get(plan.soundtrackKey),
      make: () => renderTimelineSound(segments),
    }).then((outcome) => madeElsewhere(outcome, Math.ceil(timeline * SOUNDTRACK_SHARE)));
  const heardSegments = () =>
    Promise.all(
      segmentJobs.map((job, i) => {
        const stored = scenesFound[i]!.scene;
        return !heard[i] ? null : stored ? { scene: stored } : job;
      }),
    );
  const timelineSound = (storedSoundtrack ? Promise.resolve(storedSoundtrack) : heardSegments().then(soundtrackOnce)).finally(() =>
    finish("soundtrack"),
  );
  async function renderTimelineSound(segments: (Heard | null)[]) {
    const music = plan.music ? await (options.musicPath ?? options.sourcePath)(plan.music.source) : null;
    const sound = segments.map((s, i) => (heard[i] ? s!.scene.files.audio! : null));
    return track("soundtrack", Math.ceil(timeline * SOUNDTRACK_SHARE), () =>
      makeSoundtrack(plan, sound, music, context("soundtrack"), keep),
    );
  }

  const [segments, transitions, soundtrack] = await Promise.all([allSegments, allTransitions, timelineSound]);

  const crossfadeAfter = new Map(plan.transitions.map((t, i) => [t.from, transitions[i]!]));
  const videoFiles: string[] = [];
  plan.segments.forEach((_, i) => {
    for (const part of segments[i]!.parts) videoFiles.push(part.files.body!);
    const crossfade = crossfadeAfter.get(i);
    if (crossfade) videoFiles.push(crossfade.files.body!);
  });
  await track("join", Math.ceil(timeline * JOIN_SHARE), () =>
    joinPieces(videoFiles, soundtrack.files.audio!, options.output, { ...context("join"), durationSeconds: plan.durationSeconds }),
  );
  finish("join");
  let poster: string | null = null;
  if (options.poster) {
    // The intro's heading is the most telling frame: two thirds into the intro card.
    const intro = plan.segments[0];
    const at = intro ? (intro.frames * 2) / 3 / plan.profile.fps : 0;
    poster = (await makePoster(options.output, at, options.poster, { signal })).path;
  }
  return { output: options.output, poster, piecesRendered: counts.rendered, piecesReused: counts.reused, renderedKeys, finishedAt };
}
