// What a bench step saw: durations by kind (for their percentiles) and failures by kind.

export class Samples {
  private readonly durations = new Map<string, number[]>();
  readonly failures = new Map<string, { count: number; first: string }>();

  add(kind: string, ms: number) {
    const list = this.durations.get(kind) ?? [];
    list.push(ms);
    this.durations.set(kind, list);
  }

  fail(kind: string, error: unknown) {
    const seen = this.failures.get(kind);
    if (seen) seen.count += 1;
    else this.failures.set(kind, { count: 1, first: error instanceof Error ? error.message : String(error) });
  }

  /** Times `work` as `kind`; a throw is counted as a failure of that kind and answered with null. */
  async timed<T>(kind: string, work: () => Promise<T>): Promise<T | null> {
    const started = performance.now();
    try {
      const value = await work();
      this.add(kind, performance.now() - started);
      return value;
    } catch (error) {
      this.fail(kind, error);
      return null;
    }
  }

  count(kind: string) {
    return this.durations.get(kind)?.length ?? 0;
  }

  /** The `share` (0–1) percentile of a kind, by nearest rank; null with nothing seen. */
  percentile(kind: string, share: number) {
    const sorted = [...(this.durations.get(kind) ?? [])].sort((a, b) => a - b);
    if (!sorted.length) return null;
    return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
  }

  kinds() {
    return [...this.durations.keys()];
  }

  failureCount() {
    return [...this.failures.values()].reduce((sum, { count }) => sum + count, 0);
  }
}
