import { setMaxListeners } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pieceOnce } from "./piece-once.server";
import type { RenderPlan } from "./plan";
import type { PieceStore } from "./run.server";
import { makeMissing, missingCount, sceneStored } from "./scene-pieces.server";

/**
 * Renders, ahead of any publish, what of each segment of the plan is not stored yet
 * (docs/rendering.md: scenes rendered as contributions arrive; after a theme change, only the
 * captioned parts and the title cards, docs/decisions/038), in the render slots beside whatever
 * else runs. Crossfades wait for publishing: they depend on both neighbours, which may
 * still change. A scene a render is making meanwhile is waited for, never made twice. Resolves to
 * how many pieces it made (a scene's own piece and its parts count one each, as in `piecesOf`).
 */
export async function prepareRender(
  plan: RenderPlan,
  options: { store: PieceStore; sourcePath: (key: string) => Promise<string>; signal?: AbortSignal },
) {
  const work = await mkdtemp(path.join(os.tmpdir(), "chorus-prepare-"));
  // One failed scene stops the others, as in a render.
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const stop = () => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  const signal = controller.signal;
  try {
    const outcomes = await Promise.allSettled(
      plan.segments.map((segment) =>
        pieceOnce(segment.key, {
          store: options.store,
          signal,
          // Looked up without fetching: it runs for every arrival, and with S3 `get` downloads the files.
          lookUp: async () => (missingCount(await sceneStored(options.store, segment)) === 0 ? 0 : null),
          make: async () => {
            const found = await sceneStored(options.store, segment);
            const context = {
              profile: plan.profile,
              workDir: path.join(work, `s-${segment.index}`),
              sourcePath: options.sourcePath,
              signal,
            };
            await makeMissing(segment, found, context, (key, kind, files, frames, timing) =>
              options.store.put(key, kind, files, frames, timing),
            );
            return missingCount(found);
          },
        }).catch((error: unknown) => {
          stop();
          throw error;
        }),
      ),
    );
    // The cause, rather than the scenes stopped because of it.
    const failures = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
    if (failures.length) throw failures.find((e) => (e as Error | null)?.name !== "AbortError") ?? failures[0];
    return outcomes.reduce((sum, o) => sum + (o.status === "fulfilled" && o.value.made ? o.value.value : 0), 0);
  } finally {
    options.signal?.removeEventListener("abort", stop);
    await rm(work, { recursive: true, force: true });
  }
}
