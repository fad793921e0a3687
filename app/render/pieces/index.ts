// Rendering a plan's pieces with ffmpeg and sharp (RENDERING.md). Each function reads and writes
// local files only; caching pieces by key, scheduling and progress totals belong to the caller.

export { ThemeAssetError, defaultPublicDir, resolveThemeAsset } from "./assets.server";
export { MESSAGE_MAX_LINES, type PlacedImage, renderTextBox, renderTitleCard } from "./cards.server";
export { collageCells, renderCollage } from "./collage.server";
export { AUDIO_RATE, losslessVideoArgs, samplesForFrames, videoEncodingArgs } from "./encoding";
export { type JoinContext, joinPieces, makePoster } from "./join.server";
export { type PieceContext, type SegmentFiles, renderSegmentPieces } from "./segment.server";
export { type SoundtrackContext, renderSoundtrack } from "./soundtrack.server";
export { type TransitionContext, renderTransition } from "./transition.server";
export { PieceLengthError, countVideoFrames } from "./verify.server";
