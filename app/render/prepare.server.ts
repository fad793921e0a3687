import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { renderSegmentPieces } from "./pieces";
import { bodyFrames, type RenderPlan } from "./plan";
import type { PieceStore } from "./run.server";
import { renderSlots } from "./slots.server";

/**
 * Renders, ahead of any publish, each segment of the plan whose pieces are not stored yet
 * (docs/rendering.md: bodies rendered as contributions arrive). Crossfades wait for publishing:
 * they depend on both neighbours, which may still change.
 */
export async function prepareRender(
  plan: RenderPlan,
  options: { store: PieceStore; sourcePath: (key: string) => Promise<string>; signal?: AbortSignal },
) {
  const work = await mkdtemp(path.join(os.tmpdir(), "chorus-prepare-"));
  let rendered = 0;
  try {
    for (const segment of plan.segments) {
      // Looked up without fetching: it runs for every arrival, and with S3 `get` downloads the files.
      if (await options.store.has(segment.key)) continue;
      const files = await renderSlots().run(
        () =>
          renderSegmentPieces(segment, {
            profile: plan.profile,
            workDir: path.join(work, `s-${segment.index}`),
            sourcePath: options.sourcePath,
            signal: options.signal,
          }),
        options.signal,
      );
      const stored: Record<string, string> = { body: files.body, audio: files.audio };
      if (files.head) stored.head = files.head;
      if (files.tail) stored.tail = files.tail;
      await options.store.put(segment.key, segment.kind, stored, bodyFrames(segment));
      rendered += 1;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return rendered;
}
