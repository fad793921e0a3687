import { setMaxListeners } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pieceOnce } from "./piece-once.server";
import type { PieceStore } from "./piece-store";
import { segmentIsHeard } from "./pieces";
import { piecesOf, type RenderPlan } from "./plan";
import { plannedRungPieces, rungPieceOnce } from "./rung-pieces.server";
import { type KeepPiece, makeMissing, missingCount, sceneStored } from "./scene-pieces.server";
import { soundtrackPlace } from "./slots.server";
import { makeCrossfade, makeSoundtrack } from "./timeline-pieces.server";

/** How often a preparation asks whether the Chorus changed again since it started. */
const NEWER_PLAN_POLL_MS = 1_000;

export interface PrepareOptions {
  store: PieceStore;
  /** A local path for a rendition's (or a track's) storage key. */
  sourcePath: (key: string) => Promise<string>;
  signal?: AbortSignal;
  /**
   * The pieces of the plan a newer change makes, or null while nothing changed. Asked every
   * second: a piece of this plan the newer one does not use stops, whether running or waiting for
   * a slot, so the slots go to what will be used.
   */
  newerPlan?: () => Promise<ReadonlySet<string> | null>;
  /**
   * Contributions are still being processed: what the next arrival changes is left to a later
   * preparation (or the render), or it would be made again after every one — the soundtrack (each
   * scene's sound goes into the mix) and the closing card (it names the contributors), with the
   * crossfade into it.
   */
  arriving?: boolean;
}

/**
 * Makes, ahead of any publish, every piece of the plan that is not stored yet — each scene, each
 * crossfade once its two scenes are there, the soundtrack once every heard scene's sound is — so a
 * publish has only the join left (docs/decisions/033), less what more arrivals would change. It
 * runs in the render slots beside whatever else runs; a piece a render is making meanwhile is
 * waited for, never made twice. Resolves to how many pieces it made.
 */
export async function prepareRender(plan: RenderPlan, options: PrepareOptions) {
  const { store } = options;
  const work = await mkdtemp(path.join(os.tmpdir(), "chorus-prepare-"));
  // One failed piece stops the others, as in a render.
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  // And each piece can be dropped on its own, when a newer plan no longer uses it.
  const drops = new Map(piecesOf(plan).map((piece) => [piece.key, new AbortController()]));
  const signalOf = (key: string) => AbortSignal.any([controller.signal, drops.get(key)!.signal]);
  const dropped = (keys: readonly string[]) => keys.some((key) => drops.get(key)!.signal.aborted);
  const context = (name: string, signal: AbortSignal) => ({ profile: plan.profile, workDir: path.join(work, name), signal });
  const keep: KeepPiece = (key, kind, files, frames, timing) => store.put(key, kind, files, frames, timing);
  const left = new Set(
    options.arriving
      ? [plan.soundtrackKey, ...plan.segments.filter((s) => s.kind === "title" && s.role === "outro").map((s) => s.key)]
      : [],
  );
  let made = 0;
  /**
   * Pieces made (a scene's run may make several), found (0), or left alone because they, or a
   * piece they are made from, were dropped (null).
   */
  const settle = (keys: readonly string[], task: () => Promise<{ made: boolean; value: number } | null>) =>
    task().then(
      (outcome) => {
        if (outcome?.made) made += outcome.value;
        return outcome && true;
      },
      (error: unknown) => {
        if (dropped(keys)) return null;
        stop();
        throw error;
      },
    );

  // A scene's own piece and its parts (docs/decisions/038) are made in one run, under the scene's
  // key; after a theme change only the captioned parts and the title cards are missing.
  const scenes = plan.segments.map((segment) =>
    settle([segment.key], async () => {
      if (left.has(segment.key)) return null;
      const signal = signalOf(segment.key);
      return pieceOnce(segment.key, {
        store,
        signal,
        // Looked up without fetching: it runs for every arrival, and with S3 `get` downloads the files.
        lookUp: async () => (missingCount(await sceneStored(store, segment)) === 0 ? 0 : null),
        make: async () => {
          const found = await sceneStored(store, segment);
          await makeMissing(segment, found, { ...context(`s-${segment.index}`, signal), sourcePath: options.sourcePath }, keep);
          return missingCount(found);
        },
      });
    }),
  );

  const crossfades = plan.transitions.map((transition) => {
    const from = plan.segments[transition.from]!;
    const to = plan.segments[transition.from + 1]!;
    return settle([transition.key, from.key, to.key], async () => {
      if (!(await scenes[transition.from]) || !(await scenes[transition.from + 1])) return null;
      const signal = signalOf(transition.key);
      return pieceOnce(transition.key, {
        store,
        signal,
        lookUp: async () => ((await store.has(transition.key)) ? 0 : null),
        make: async () => {
          const [tail, head] = await Promise.all([store.get(from.key, ["tail"]), store.get(to.key, ["head"])]);
          await makeCrossfade(transition, tail?.files.tail, head?.files.head, context(`t-${transition.index}`, signal), keep);
          return 1;
        },
      });
    });
  });

  let scenesLeft = scenes.length;
  for (const scene of scenes) scene.finally(() => (scenesLeft -= 1)).catch(() => undefined);
  // The soundtrack waits only for the sound it mixes: a heard scene whose own piece is stored (after
  // a theme or caption change) has it, and a silent one gives none.
  const soundReady = (index: number) => {
    const segment = plan.segments[index]!;
    if (!segmentIsHeard(segment)) return Promise.resolve(true);
    return store.has(segment.key).then((stored) => stored || scenes[index]!);
  };
  const soundtrack = settle([plan.soundtrackKey, ...plan.segments.map((s) => s.key)], async () => {
    if (left.has(plan.soundtrackKey) || (await Promise.all(plan.segments.map((_, i) => soundReady(i)))).some((ready) => !ready))
      return null;
    const signal = signalOf(plan.soundtrackKey);
    return pieceOnce(plan.soundtrackKey, {
      store,
      signal,
      ...soundtrackPlace(scenesLeft),
      lookUp: async () => ((await store.has(plan.soundtrackKey)) ? 0 : null),
      make: async () => {
        // Only the sound of scenes that are heard is fetched, as a render does.
        const sound = await Promise.all(
          plan.segments.map(async (segment, i) => {
            if (!segmentIsHeard(segment)) return null;
            const piece = await store.get(segment.key, ["audio"]);
            if (!piece?.files.audio) throw new Error(`Scene ${i} has no sound to mix.`);
            return piece.files.audio;
          }),
        );
        const music = plan.music ? await options.sourcePath(plan.music.source) : null;
        await makeSoundtrack(plan, sound, music, context("soundtrack", signal), keep);
        return 1;
      },
    });
  });

  const unwatch = watchNewerPlan(options.newerPlan, (wanted) => {
    for (const [key, drop] of drops) if (!wanted.has(key)) drop.abort();
  });
  try {
    await settledAll([...scenes, ...crossfades, soundtrack]);
    return made;
  } finally {
    unwatch();
    options.signal?.removeEventListener("abort", stop);
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Asks `newerPlan` every second, once at a time, and hands what a newer plan uses to `overtaken`
 * each time there is one. Answers the function that stops asking.
 */
function watchNewerPlan(newerPlan: PrepareOptions["newerPlan"], overtaken: (wanted: ReadonlySet<string>) => void) {
  if (!newerPlan) return () => {};
  let asking = false;
  const ask = async () => {
    if (asking) return;
    asking = true;
    try {
      const wanted = await newerPlan();
      if (wanted) overtaken(wanted);
    } catch (error) {
      console.warn("render-ahead: could not tell whether the Chorus changed again:", error);
    } finally {
      asking = false;
    }
  };
  const watch = setInterval(() => void ask(), NEWER_PLAN_POLL_MS);
  return () => clearInterval(watch);
}

/** Waits for every task; throws the first failure's cause, rather than a task stopped because of it. */
async function settledAll(tasks: readonly Promise<unknown>[]) {
  const outcomes = await Promise.allSettled(tasks);
  const failures = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
  if (failures.length) throw failures.find((e) => (e as Error | null)?.name !== "AbortError") ?? failures[0];
}

/**
 * Makes, ahead of publishing, the rung piece (docs/decisions/036) of every video piece the plan
 * joins that has none yet, so the published version's ladder has only joining left; nothing when
 * a full-size video piece of the plan is not stored. They wait in the render slots behind every
 * other job. Once the Chorus changes again, those still waiting stop (the newer preparation's
 * full-size pieces come first, and it makes them afterwards) and so do those, running or not,
 * whose piece the newer plan no longer uses. Resolves to how many it made.
 */
export async function prepareRungPieces(plan: RenderPlan, options: Pick<PrepareOptions, "store" | "signal" | "newerPlan">) {
  const { store } = options;
  const pieces = plannedRungPieces(plan);
  const stored = await Promise.all(pieces.map((piece) => store.has(piece.key)));
  if (stored.some((has) => !has)) return 0;
  const work = await mkdtemp(path.join(os.tmpdir(), "chorus-prepare-rungs-"));
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  const overtaken = new AbortController();
  setMaxListeners(0, overtaken.signal);
  const drops = new Map(pieces.map((piece) => [piece.key, new AbortController()]));
  let made = 0;
  const tasks = pieces.map((piece) => {
    const dropped = drops.get(piece.key)!.signal;
    return rungPieceOnce(plan, piece, {
      store,
      workDir: work,
      signal: AbortSignal.any([controller.signal, dropped]),
      waiting: overtaken.signal,
      fetch: false,
    }).then(
      (outcome) => {
        if (outcome.made) made += 1;
      },
      (error: unknown) => {
        // Dropped or overtaken; or its full-size piece was swept meanwhile, and a render makes both again.
        const name = (error as Error | null)?.name;
        if (dropped.aborted || (overtaken.signal.aborted && name === "AbortError") || name === "PieceGoneError") return;
        stop();
        throw error;
      },
    );
  });
  const unwatch = watchNewerPlan(options.newerPlan, (wanted) => {
    overtaken.abort();
    for (const [key, drop] of drops) if (!wanted.has(key)) drop.abort();
  });
  try {
    await settledAll(tasks);
    return made;
  } finally {
    unwatch();
    options.signal?.removeEventListener("abort", stop);
    await rm(work, { recursive: true, force: true });
  }
}
