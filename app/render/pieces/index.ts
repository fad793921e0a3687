// Rendering a plan's pieces with ffmpeg and sharp (docs/rendering.md). Each function reads and writes
// local files only; caching pieces by key, scheduling and progress totals belong to the caller.

export { joinPieces, makePoster } from "./join.server";
export { type PieceContext, type SegmentFiles, renderSegmentPieces } from "./segment.server";
export { renderSoundtrack } from "./soundtrack.server";
export { segmentIsHeard } from "./timeline-audio.server";
export { renderTransition } from "./transition.server";
export { countVideoFrames } from "./verify.server";
