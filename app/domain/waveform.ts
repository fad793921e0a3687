// A track's waveform as the music panel draws it (spec §3 Track): peak levels at an even spacing.

/** How many peaks processing keeps per track. */
export const WAVEFORM_POINTS = 200;

/**
 * The peak level (0–1) of each of `points` equal slices of mono samples, rounded to three places.
 * Always `points` values for any non-empty input: a very short sound repeats its samples.
 */
export function waveformPeaks(samples: ArrayLike<number>, points = WAVEFORM_POINTS): number[] {
  if (!samples.length || points < 1) return [];
  const peaks: number[] = [];
  for (let slice = 0; slice < points; slice++) {
    const from = Math.floor((slice * samples.length) / points);
    const to = Math.max(from + 1, Math.floor(((slice + 1) * samples.length) / points));
    let peak = 0;
    for (let i = from; i < to; i++) peak = Math.max(peak, Math.abs(samples[i]!));
    peaks.push(Math.round(Math.min(1, peak) * 1000) / 1000);
  }
  return peaks;
}

/**
 * `count` bar heights (0–1) for drawing: neighbouring peaks merged by their maximum, scaled so the
 * loudest bar is full height (a quiet track still shows its shape). A silent track stays flat.
 */
export function waveformBars(peaks: readonly number[], count: number): number[] {
  if (!peaks.length || count < 1) return [];
  const bars: number[] = [];
  for (let bar = 0; bar < count; bar++) {
    const from = Math.floor((bar * peaks.length) / count);
    const to = Math.max(from + 1, Math.floor(((bar + 1) * peaks.length) / count));
    bars.push(Math.max(...peaks.slice(from, to)));
  }
  const loudest = Math.max(...bars);
  return loudest > 0 ? bars.map((b) => Math.round((b / loudest) * 1000) / 1000) : bars;
}
