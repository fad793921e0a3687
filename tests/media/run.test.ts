import { describe, expect, test } from "vitest";
import { resetEnvCache } from "~/lib/env.server";
import { type FfmpegProgress, MediaToolError, createProgressParser, runFfmpeg, runFfprobe } from "~/media/run.server";

const endlessPattern = ["-hide_banner", "-re", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=10:duration=60", "-f", "null", "-"];

describe("running ffmpeg and ffprobe", () => {
  test("returns what the tool printed", async () => {
    const { stdout } = await runFfprobe(["-hide_banner", "-version"]);
    expect(stdout).toMatch(/^ffprobe version/);
  });

  test("a failed run is a MediaToolError with the exit code and the end of stderr", async () => {
    const error = await runFfmpeg(["-hide_banner", "-i", "/nonexistent/clip.mp4", "-f", "null", "-"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaToolError);
    const failure = error as MediaToolError;
    expect(failure.reason).toBe("failed");
    expect(failure.exitCode).not.toBe(0);
    expect(failure.stderrTail.join("\n")).toContain("No such file or directory");
  });

  test("reports progress blocks until the end", async () => {
    const reports: FfmpegProgress[] = [];
    await runFfmpeg(["-hide_banner", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=30:duration=2", "-f", "null", "-"], {
      onProgress: (progress) => reports.push(progress),
    });
    const last = reports.at(-1);
    expect(last?.done).toBe(true);
    expect(last?.frame).toBe(60);
    expect(last?.outTime).toBeCloseTo(2, 1);
    expect(last?.speed).toBeGreaterThan(0);
  });

  test("a missing binary is a MediaToolError too, not a crash", async () => {
    const saved = process.env.FFPROBE_PATH;
    process.env.FFPROBE_PATH = "/nonexistent/ffprobe";
    resetEnvCache();
    try {
      const error = await runFfprobe(["-version"]).catch((e: unknown) => e);
      expect((error as MediaToolError).reason).toBe("not-started");
    } finally {
      if (saved === undefined) delete process.env.FFPROBE_PATH;
      else process.env.FFPROBE_PATH = saved;
      resetEnvCache();
    }
  });

  test("is stopped when it runs past its time limit", async () => {
    const started = Date.now();
    const error = await runFfmpeg(endlessPattern, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaToolError);
    expect((error as MediaToolError).reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("is stopped when its signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await runFfmpeg(endlessPattern, { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as MediaToolError).reason).toBe("aborted");
    const already = await runFfmpeg(endlessPattern, { signal: controller.signal }).catch((e: unknown) => e);
    expect((already as MediaToolError).reason).toBe("aborted");
  });
});

describe("reading -progress output", () => {
  test("handles blocks split across chunks, N/A values and out_time_ms in microseconds", () => {
    const reports: FfmpegProgress[] = [];
    const parser = createProgressParser((p) => reports.push(p));
    parser.push("frame=0\nout_time_ms=N/A\nspeed=N/A\nprogress=con");
    parser.push("tinue\nframe=45\nout_time_ms=1500000\nspe");
    parser.push("ed=2.5x\nprogress=end\n");
    expect(reports).toEqual([
      { frame: 0, outTime: null, speed: null, done: false },
      { frame: 45, outTime: 1.5, speed: 2.5, done: true },
    ]);
  });

  test("prefers out_time_us when both are there", () => {
    const reports: FfmpegProgress[] = [];
    createProgressParser((p) => reports.push(p)).push("out_time_us=2000000\nout_time_ms=2000\nprogress=continue\n");
    expect(reports[0]?.outTime).toBe(2);
  });
});
