import { AsyncLocalStorage } from "node:async_hooks";
import os from "node:os";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

// Two ffmpeg render jobs at a time suit two cores (docs/rendering.md: one leaves a core idle, three
// only add memory). The slots are shared by every render in the process: a background piece
// render and a publish never run four encoders between them.

/**
 * Which waiting job a freed slot goes to first. A crossfade goes before any scene not started: it
 * can only start once both its scenes are there, and left behind every scene it would run after
 * the last of them, where nothing else is left to keep the cores busy (docs/decisions/011). A
 * scene whose sound the soundtrack still needs goes before a silent one, so the soundtrack (one
 * thread) is mixed while photos and title cards render, not after them. A rung piece (a piece at
 * a size of the HLS ladder, docs/decisions/036) goes after everything a render or a preparation
 * waits for: such a job waits at most for a rung piece already running.
 */
export const SLOT_PRIORITY = { rung: -1, scene: 0, heardScene: 1, crossfade: 2 } as const;

/**
 * Where a render or a preparation mixes the soundtrack, given how many scenes it has still to
 * make. The soundtrack is one thread (mixing, then the AAC encoder) where a slot's video job keeps
 * two busy: with no scene left it runs beside the slots, with the last crossfades. While scenes are
 * still to be made it takes a slot ahead of them, as a crossfade does: beside two scene jobs it
 * took a 1080p render past 1 GB (bench/README.md).
 */
export const soundtrackPlace = (scenesLeft: number) =>
  scenesLeft > 0 ? { priority: SLOT_PRIORITY.crossfade } : { inSlot: false as const };

interface Waiting {
  grant: () => void;
  priority: number;
}

export class RenderSlots {
  private free: number;
  /** Highest priority first; among equals, in the order they asked. */
  private readonly waiting: Waiting[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /**
   * Runs `job` when a slot is free; a job cancelled while waiting never starts. Inside it,
   * `slotThreads()` answers the threads its ffmpeg may use.
   */
  async run<T>(job: () => Promise<T>, signal?: AbortSignal, priority: number = SLOT_PRIORITY.scene): Promise<T> {
    await this.acquire(signal, priority);
    try {
      return await jobThreads.run(this.threadsNow(), job);
    } finally {
      this.release();
    }
  }

  /**
   * The cores a job starting now may take: all of them when it runs alone with nothing waiting (a
   * caption's scene, a crossfade at the end of a render), else its share of them. Two jobs on two
   * cores with one thread each for decoding and encoding kept both cores busy, where two threads
   * each synchronised and left them idle between frames: two clip scenes at once took 13% less
   * time; one alone with one thread took 18% more (bench/README.md, 2026-11-28).
   */
  private threadsNow() {
    const busy = this.size - this.free + this.waiting.length;
    return Math.max(1, Math.floor(os.availableParallelism() / Math.max(1, Math.min(this.size, busy))));
  }

  private acquire(signal: AbortSignal | undefined, priority: number) {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiting: Waiting = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        priority,
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiting);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(abortError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const after = this.waiting.findIndex((w) => w.priority < priority);
      this.waiting.splice(after < 0 ? this.waiting.length : after, 0, waiting);
    });
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next.grant();
    else this.free += 1;
  }
}

const abortError = () => Object.assign(new Error("The render was cancelled."), { name: "AbortError" });

export const renderSlots = () => singleton("renderSlots", () => new RenderSlots(env().RENDER_CONCURRENCY));

const jobThreads = new AsyncLocalStorage<number>();

/**
 * Threads for each decoder and encoder of the render job running here (`RenderSlots.run`); outside
 * a slot (a test calling a piece's maker directly), the cores a slot has.
 */
export const slotThreads = () => jobThreads.getStore() ?? Math.max(1, Math.floor(os.availableParallelism() / env().RENDER_CONCURRENCY));
