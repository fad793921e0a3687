import os from "node:os";
import { describe, expect, test } from "vitest";
import { RenderSlots, SLOT_PRIORITY, slotThreads } from "~/render/slots.server";

describe("render slots", () => {
  test("a crossfade goes before scenes that asked earlier, and jobs of one kind go in the order they asked", async () => {
    const slots = new RenderSlots(1);
    const started: string[] = [];
    const job = (name: string, priority?: number) => slots.run(async () => void started.push(name), undefined, priority);
    await Promise.all([
      job("scene 0"),
      job("scene 1"),
      job("scene 2"),
      job("crossfade 0", SLOT_PRIORITY.crossfade),
      job("crossfade 1", SLOT_PRIORITY.crossfade),
    ]);
    expect(started).toEqual(["scene 0", "crossfade 0", "crossfade 1", "scene 1", "scene 2"]);
  });

  test("a rung piece waits behind every scene and crossfade, whenever they asked", async () => {
    const slots = new RenderSlots(1);
    const started: string[] = [];
    const job = (name: string, priority?: number) => slots.run(async () => void started.push(name), undefined, priority);
    await Promise.all([
      job("rung 0", SLOT_PRIORITY.rung),
      job("rung 1", SLOT_PRIORITY.rung),
      job("rung 2", SLOT_PRIORITY.rung),
      job("scene 0"),
      job("crossfade 0", SLOT_PRIORITY.crossfade),
    ]);
    // The first took the free slot; every later rung piece waited for the scene and the crossfade.
    expect(started).toEqual(["rung 0", "crossfade 0", "scene 0", "rung 1", "rung 2"]);
  });

  test("a job cancelled while it waits never starts, and the slot goes to the next", async () => {
    const slots = new RenderSlots(1);
    const started: string[] = [];
    const controller = new AbortController();
    const job = (name: string, signal?: AbortSignal, priority?: number) => slots.run(async () => void started.push(name), signal, priority);
    const first = job("first");
    const cancelled = job("cancelled", controller.signal, SLOT_PRIORITY.crossfade);
    const next = job("next");
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: "AbortError" });
    await Promise.all([first, next]);
    expect(started).toEqual(["first", "next"]);
  });

  test("a job alone may take every core; jobs side by side, or with others waiting, share them", async () => {
    const cores = os.availableParallelism();
    const slots = new RenderSlots(2);
    const seen: Record<string, number> = {};
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const job = (name: string, until?: Promise<void>) =>
      slots.run(async () => {
        seen[name] = slotThreads();
        await until;
      });
    await job("alone");
    const first = job("first", held);
    const second = job("second", held);
    const third = job("third");
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await Promise.all([first, second, third]);
    expect(seen.alone).toBe(cores);
    // The first and the second began side by side, with the third waiting.
    expect(seen.first).toBe(Math.max(1, Math.floor(cores / 2)));
    expect(seen.second).toBe(Math.max(1, Math.floor(cores / 2)));
    expect(seen.third).toBeGreaterThanOrEqual(Math.max(1, Math.floor(cores / 2)));
  });
});
