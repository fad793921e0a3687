import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

// Two ffmpeg render jobs at a time suit two cores (docs/rendering.md: one leaves a core idle, three
// only add memory). The slots are shared by every render in the process: a background piece
// render and a publish never run four encoders between them.
export class RenderSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Runs `job` when a slot is free; a job cancelled while waiting never starts. */
  async run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal) {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(abortError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

const abortError = () => Object.assign(new Error("The render was cancelled."), { name: "AbortError" });

export const renderSlots = () => singleton("renderSlots", () => new RenderSlots(env().RENDER_CONCURRENCY));
