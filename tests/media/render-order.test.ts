// The order a render and a preparation make their pieces in: what the cores are given next, and
// what waits for what (app/render/slots.server.ts, run.server.ts, prepare.server.ts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dropSingleton, setSingleton } from "~/lib/singleton.server";
import type { PieceStore } from "~/render/piece-store";
import { countVideoFrames } from "~/render/pieces";
import { type RenderPlan, planRender } from "~/render/plan";
import { prepareRender } from "~/render/prepare.server";
import { runRender } from "~/render/run.server";
import { RenderSlots } from "~/render/slots.server";
import { makeTempDir } from "./support/media-fixtures";
import { item, makeMontageSources, memoryStore, montageContext, planInput } from "./support/montage";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = await makeTempDir("render-order");
  Object.assign(files, await makeMontageSources(dir));
});
afterAll(() => dir.remove());

const context = (name: string) => montageContext(dir, files, name);

describe("the order pieces are made in", () => {
  test("a crossfade is rendered ahead of the scenes still waiting once its two scenes are there", async () => {
    // One slot: the order the pieces are made in is the order they got it.
    setSingleton("renderSlots", new RenderSlots(1));
    try {
      const { store } = memoryStore();
      const theme = { ...planInput([]).theme, isCollage: false, scenes: [] };
      const plan = planRender(planInput([item("photo", "a.jpg"), item("photo", "b.jpg"), item("photo", "c.jpg")], { theme }));
      const made: string[] = [];
      const name = new Map([
        ...plan.segments.map((s) => [s.key, `scene ${s.index}`] as const),
        ...plan.transitions.map((t) => [t.key, `crossfade ${t.index}`] as const),
      ]);
      const { sourcePath, assetPath } = context("order");
      await runRender(plan, {
        store,
        sourcePath,
        assetPath,
        workDir: dir.path("order-work"),
        output: dir.path("order.mp4"),
        onPieceRendered: (key) => name.has(key) && made.push(name.get(key)!),
      });
      // The slot a crossfade's second scene gives back has gone to the next scene by the time the
      // crossfade asks for one (it looks itself up in the store first); the slot after is its own,
      // ahead of every scene still waiting. Queued behind every scene, all four would come last.
      expect(made).toEqual([
        "scene 0",
        "scene 1",
        "scene 2",
        "crossfade 0",
        "crossfade 1",
        "scene 3",
        "scene 4",
        "crossfade 2",
        "crossfade 3",
      ]);
    } finally {
      dropSingleton("renderSlots");
    }
  });

  test("the scenes whose sound the soundtrack needs are rendered first, and the soundtrack beside the silent ones", async () => {
    setSingleton("renderSlots", new RenderSlots(1));
    try {
      const { store } = memoryStore();
      const theme = { ...planInput([]).theme, isCollage: false, scenes: [] };
      const media = [
        item("photo", "a.jpg"),
        item("video", "clip.mp4"),
        item("photo", "b.jpg"),
        item("video", "speech.mp4", { durationSeconds: 3 }),
      ];
      const plan = planRender(planInput(media, { theme }));
      const made: string[] = [];
      const name = new Map([
        ...plan.segments.map((s) => [s.key, s.kind === "clip" ? `clip ${s.index}` : `silent ${s.index}`] as const),
        [plan.soundtrackKey, "soundtrack"] as const,
      ]);
      const { sourcePath, assetPath } = context("heard-first");
      await runRender(plan, {
        store,
        sourcePath,
        assetPath,
        workDir: dir.path("heard-first-work"),
        output: dir.path("heard-first.mp4"),
        onPieceRendered: (key) => name.has(key) && made.push(name.get(key)!),
      });
      // The intro takes the free slot as it asks; the two clips go ahead of the scenes queued before
      // them; the soundtrack is mixed while two silent scenes are still to come.
      expect(made.slice(0, 3)).toEqual(["silent 0", "clip 2", "clip 4"]);
      const last = made.filter((m) => m.startsWith("silent")).slice(-2);
      expect(made.indexOf("soundtrack")).toBeLessThan(made.indexOf(last[0]!));
      expect(last).toHaveLength(2);
    } finally {
      dropSingleton("renderSlots");
    }
  });

  test("after a theme and a music change the soundtrack is mixed from the stored sound, without waiting for the captions", async () => {
    setSingleton("renderSlots", new RenderSlots(2));
    const { store } = memoryStore();
    const { before, after, held } = themeAndMusicChange();
    const { sourcePath } = context("theme-music");
    const run = (p: RenderPlan, name: string, into: PieceStore) =>
      runRender(p, { store: into, sourcePath, workDir: dir.path(`${name}-work`), output: dir.path(`${name}.mp4`) });
    const holding = holdingBack(store, held.key);
    try {
      await run(before, "theme-music-before", store);
      const rendering = run(after, "theme-music-after", holding.store);
      await expect.poll(() => store.has(after.soundtrackKey), { timeout: 20_000 }).toBe(true);
      holding.open();
      const result = await rendering;
      expect(result.renderedKeys).toContain(held.key);
      expect(await countVideoFrames(result.output)).toBe(after.totalFrames);
    } finally {
      holding.open();
      dropSingleton("renderSlots");
    }
  });

  test("a preparation after a theme and a music change mixes the soundtrack from the stored sound, without waiting for the captions", async () => {
    setSingleton("renderSlots", new RenderSlots(2));
    const { store } = memoryStore(dir.path("prepared"));
    const { before, after, held } = themeAndMusicChange();
    const { sourcePath } = context("prepare-theme-music");
    const holding = holdingBack(store, held.key);
    try {
      expect(await prepareRender(before, { store, sourcePath })).toBeGreaterThan(0);
      const preparing = prepareRender(after, { store: holding.store, sourcePath });
      await expect.poll(() => store.has(after.soundtrackKey), { timeout: 20_000 }).toBe(true);
      holding.open();
      await preparing;
      expect(await store.has(held.key)).toBe(true);
    } finally {
      holding.open();
      dropSingleton("renderSlots");
    }
  });
});

/**
 * A plan of two clips with captions and a photo, and the same after another theme (its box colour)
 * and the music turned down; `held` is the last clip's captioned part, which the change makes again.
 * Title cards from the app's own files, as a preparation reads them.
 */
function themeAndMusicChange() {
  const theme = {
    ...planInput([]).theme,
    introUrl: "/themes/classic-ivory/intro.jpg",
    outroUrl: "/themes/classic-ivory/outro.jpg",
    isCollage: false,
    scenes: [],
  };
  const media = [item("video", "speech.mp4", { durationSeconds: 3 }), item("photo", "a.jpg"), item("video", "clip.mp4")];
  const before = planRender(planInput(media, { theme }));
  const after = planRender(
    planInput(media, { theme: { ...theme, textBoxColor: "#202060e6" }, track: { ...planInput([]).track!, volume: 0.4 } }),
  );
  const held = after.segments.at(-2)!.parts[0]!;
  expect(held.kind).toBe("caption");
  return { before, after, held };
}

/** `store`, with the piece under `key` kept out of it until `open` is called. */
function holdingBack(store: PieceStore, key: string) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held: PieceStore = { ...store, put: async (k, ...rest) => (k === key && (await gate), store.put(k, ...rest)) };
  return { store: held, open: () => open() };
}
