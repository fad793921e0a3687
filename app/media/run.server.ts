import { spawn, type ChildProcess } from "node:child_process";
import { ffmpegEnvironment, ffmpegPath, ffprobePath } from "./ffmpeg-paths.server";

export type MediaTool = "ffmpeg" | "ffprobe";

export type MediaToolFailure = "failed" | "timeout" | "aborted" | "not-started";

/** ffmpeg or ffprobe did not finish cleanly; `stderrTail` holds its last lines for the logs. */
export class MediaToolError extends Error {
  override name = "MediaToolError";
  constructor(
    readonly tool: MediaTool,
    readonly reason: MediaToolFailure,
    readonly exitCode: number | null,
    readonly stderrTail: string[],
    detail?: string,
  ) {
    super(`${tool} ${describe(reason, exitCode)}${detail ? `: ${detail}` : ""}${stderrTail.length ? `\n${stderrTail.join("\n")}` : ""}`);
  }
}

function describe(reason: MediaToolFailure, exitCode: number | null) {
  if (reason === "failed") return `exited with code ${exitCode}`;
  if (reason === "timeout") return "timed out and was stopped";
  if (reason === "aborted") return "was cancelled";
  return "could not be started";
}

export type FfmpegProgress = {
  frame: number | null;
  /** Seconds of output written so far. */
  outTime: number | null;
  /** Encoding speed relative to real time (2 = twice as fast). */
  speed: number | null;
  done: boolean;
};

export type RunOptions = {
  /** Stop the process after this long; ffprobe defaults to 60 s, ffmpeg to 1 hour. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** ffmpeg only: adds `-progress pipe:1 -nostats` and reports each progress block. */
  onProgress?: (progress: FfmpegProgress) => void;
};

export type RunResult = { stdout: string; stderrTail: string[] };

const STDERR_LINES_KEPT = 30;

/** The ffmpeg and ffprobe processes running now. */
const children = new Set<ChildProcess>();

/**
 * Stops every ffmpeg and ffprobe this process started: a stopping worker's jobs went back to the
 * queue, and a child would otherwise outlive it (ffmpeg ignores a closed pipe) and keep a core busy.
 */
export function stopMediaTools() {
  for (const child of children) child.kill("SIGKILL");
}

export const runFfprobe = (args: string[], options: Omit<RunOptions, "onProgress"> = {}) =>
  runTool("ffprobe", ffprobePath(), args, { ...options, timeoutMs: options.timeoutMs ?? 60_000 });

export function runFfmpeg(args: string[], options: RunOptions = {}) {
  const withProgress = options.onProgress ? ["-progress", "pipe:1", "-nostats", ...args] : args;
  return runTool("ffmpeg", ffmpegPath(), withProgress, { ...options, timeoutMs: options.timeoutMs ?? 3_600_000 }, ffmpegEnvironment());
}

function runTool(tool: MediaTool, binary: string, args: string[], options: RunOptions, env?: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new MediaToolError(tool, "aborted", null, []));
    // An argument array and no shell: file names can never be read as commands or options of a shell.
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], shell: false, env });
    children.add(child);
    child.once("exit", () => children.delete(child));
    const stderr = createLineTail(STDERR_LINES_KEPT);
    const stdout: Buffer[] = [];
    const progress = options.onProgress ? createProgressParser(options.onProgress) : null;
    let stoppedFor: MediaToolFailure | null = null;

    const stop = (reason: MediaToolFailure) => {
      stoppedFor ??= reason;
      child.kill("SIGKILL"); // the output is discarded anyway: no need for ffmpeg's graceful finish
    };
    const timer = options.timeoutMs ? setTimeout(() => stop("timeout"), options.timeoutMs) : null;
    const onAbort = () => stop("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const cleanUp = () => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };

    child.stdout.on("data", (chunk: Buffer) => (progress ? progress.push(chunk.toString("utf8")) : stdout.push(chunk)));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    child.on("error", (error) => {
      cleanUp();
      reject(new MediaToolError(tool, "not-started", null, [], `${binary}: ${error.message}`));
    });
    child.on("close", (code) => {
      cleanUp();
      const tail = stderr.lines();
      if (stoppedFor) return reject(new MediaToolError(tool, stoppedFor, code, tail));
      if (code !== 0) return reject(new MediaToolError(tool, "failed", code, tail));
      resolve({ stdout: Buffer.concat(stdout).toString("utf8"), stderrTail: tail });
    });
  });
}

/** Keeps the last `max` lines of a stream that arrives in arbitrary chunks. */
function createLineTail(max: number) {
  let lines: string[] = [];
  let partial = "";
  return {
    push(text: string) {
      const parts = (partial + text).split(/\r?\n|\r/);
      partial = parts.pop() ?? "";
      lines = lines.concat(parts.filter((l) => l.trim() !== "")).slice(-max);
    },
    lines: () => (partial.trim() ? [...lines, partial] : lines).slice(-max),
  };
}

/**
 * Reads ffmpeg's `-progress` output: blocks of key=value lines, each closed by `progress=continue`
 * or `progress=end`. `out_time_ms` is read as microseconds — ffmpeg has always written microseconds
 * there (docs/rendering.md); `out_time_us` is preferred when present.
 */
export function createProgressParser(onProgress: (progress: FfmpegProgress) => void) {
  let partial = "";
  let block: Record<string, string> = {};
  return {
    push(text: string) {
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        const at = line.indexOf("=");
        if (at < 0) continue;
        const key = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (key !== "progress") {
          block[key] = value;
          continue;
        }
        onProgress(toProgress(block, value === "end"));
        block = {};
      }
    },
  };
}

function toProgress(block: Record<string, string>, done: boolean): FfmpegProgress {
  const micros = numberOrNull(block.out_time_us) ?? numberOrNull(block.out_time_ms);
  return {
    frame: numberOrNull(block.frame),
    outTime: micros === null ? null : Math.max(0, micros) / 1_000_000,
    speed: numberOrNull(block.speed?.replace(/x$/, "")),
    done,
  };
}

function numberOrNull(value: string | undefined) {
  if (value === undefined || value === "" || value === "N/A") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
