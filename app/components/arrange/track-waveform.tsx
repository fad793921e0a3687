import { formatTrackTime } from "~/domain/track-rules";
import { waveformBars } from "~/domain/waveform";

const BARS = 100;
const HEIGHT = 40;

/**
 * A track's waveform as inline SVG bars, with the part before the music's start dimmed and the
 * start marked. It scales to any width (375px phones included) without a script.
 */
export function TrackWaveform({
  title,
  peaks,
  durationSeconds,
  startSeconds,
}: {
  title: string;
  peaks: number[];
  durationSeconds: number | null;
  startSeconds?: number | null;
}) {
  const bars = waveformBars(peaks, BARS);
  if (!bars.length) return null;
  const startX = startSeconds != null && durationSeconds ? Math.min(BARS, (startSeconds / durationSeconds) * BARS) : null;
  const label = `Waveform of ${title}${startX !== null ? `; the music starts at ${formatTrackTime(startSeconds)}` : ""}`;
  return (
    <svg className="track-waveform" viewBox={`0 0 ${BARS} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={label}>
      {bars.map((level, i) => {
        const height = Math.max(1, level * (HEIGHT - 4));
        return (
          <rect
            key={i}
            x={i + 0.15}
            y={(HEIGHT - height) / 2}
            width={0.7}
            height={height}
            className={startX !== null && i + 1 <= startX ? "track-waveform__bar track-waveform__bar--skipped" : "track-waveform__bar"}
          />
        );
      })}
      {startX !== null ? (
        <line className="track-waveform__start" x1={startX} x2={startX} y1={0} y2={HEIGHT} vectorEffect="non-scaling-stroke" />
      ) : null}
    </svg>
  );
}
