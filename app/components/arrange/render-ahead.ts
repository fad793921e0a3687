// The render panel's words for what is rendered ahead and what a render now would still do.
// Plain functions of the loader's figures, so the page says the same with and without JavaScript.

export interface Ahead {
  reusable: number;
  pieces: number;
  scenesPrepared: number;
  scenes: number;
  remaining: { scenes: number; crossfades: number; soundtrack: boolean; videoFrames: number };
  estimateSeconds: number | null;
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const listed = (parts: string[]) => (parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`);

/** "about 40 s", "about 3 min": rounded up, never "0". */
export function roughDuration(seconds: number) {
  if (seconds < 60) return `about ${Math.max(5, Math.ceil(seconds / 5) * 5)} s`;
  return `about ${Math.ceil(seconds / 60)} min`;
}

/** How many scenes are rendered already: the first thing the organiser reads. */
export const preparedLine = (ahead: Ahead) =>
  `${ahead.scenesPrepared} of ${ahead.scenes} scenes (the opening and closing cards too) are already rendered.`;

/** What a render started now would reuse and still make, and how long that would take here. */
export function remainingLine(ahead: Ahead) {
  const { remaining } = ahead;
  const reuse = `A render now reuses ${ahead.reusable} of its ${ahead.pieces} pieces`;
  const left = [
    ...(remaining.scenes ? [counted(remaining.scenes, "scene", "scenes")] : []),
    ...(remaining.crossfades ? [counted(remaining.crossfades, "crossfade", "crossfades")] : []),
    ...(remaining.soundtrack ? ["the soundtrack"] : []),
  ];
  if (!left.length) return `${reuse}: only joining them is left.`;
  const time =
    ahead.estimateSeconds === null
      ? "This server has rendered nothing at this quality lately, so it can't say how long that takes yet."
      : `That takes ${roughDuration(ahead.estimateSeconds)} on this server, going by how fast it rendered its latest pieces.`;
  return `${reuse} and makes ${listed(left)}. ${time}`;
}
