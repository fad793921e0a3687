// Which lane processes a contributed file (docs/decisions/015). Decided when it is queued, before
// anything reads the file, so only what the upload declared is known: its type and its size.
// Size stands in for the work: a clip's processing time follows its length, and phones record at
// a near-fixed bitrate, so bytes say roughly how long its ffmpeg will run.

export type MediaLane = "media-small" | "media-large";

export function mediaLaneFor(
  file: { mimeType: string; sizeBytes: number },
  limits: { smallMaxBytes: number; maxPhotoBytes: number },
): MediaLane {
  // A photo is seconds of work whatever its size; a file that only claims to be one is bounded
  // by the photo limit, so a mislabelled long clip cannot take the fast lane.
  if (file.mimeType.startsWith("image/") && file.sizeBytes <= limits.maxPhotoBytes) return "media-small";
  return file.sizeBytes <= limits.smallMaxBytes ? "media-small" : "media-large";
}
