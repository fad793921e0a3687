import type { Rotation } from "./probe.server";

// What checking an upload finds (validate.server.ts, and validate-photo.server.ts for photos), in a
// file of its own so that the two checks share it without importing each other.

export type UploadLimits = {
  maxVideoBytes: number;
  maxPhotoBytes: number;
  /** Longest clip accepted, in seconds. */
  maxClipSeconds: number;
  /** Largest photo in pixels; checked from the header, before anything is decoded. */
  maxPhotoPixels: number;
};

export type ValidatedUpload = {
  kind: "photo" | "video";
  /** Judged from the content, never from the name. */
  mime: string;
  bytes: number;
  /** As displayed: after the EXIF orientation or the video's rotation. */
  width: number;
  height: number;
  /** Seconds; null for photos. */
  duration: number | null;
  rotation: Rotation;
  hasAudio: boolean;
  /** Image format (jpeg, png…) or video codec (h264, hevc…). */
  codec: string;
  frameRate: number | null;
  /** Whether the name's extension fits the content; null when no name was given. */
  extensionMatchesContent: boolean | null;
  /**
   * A HEIC photo's pixels, decoded into the `workDir` given (heic.server.ts): the file every later
   * step reads the photo from. null for everything else, and without a `workDir`.
   */
  decodedPhoto: string | null;
};

/** What a photo or video check finds, before the name is compared. */
export type Checked = Omit<ValidatedUpload, "extensionMatchesContent" | "decodedPhoto">;
