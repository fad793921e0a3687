export type UploadRejectionCode = "EMPTY" | "UNREADABLE" | "UNSUPPORTED_TYPE" | "TOO_LARGE" | "TOO_LONG" | "TOO_MANY_PIXELS";

/** An upload we will not use; `message` is written for the contributor and safe to show. */
export class UploadRejectedError extends Error {
  override name = "UploadRejectedError";
  constructor(
    readonly code: UploadRejectionCode,
    message: string,
    /** For the logs: what the tools said. Never shown to the contributor. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** "50 MB", "2 GB": binary units with the everyday names, as the upload form shows the limits. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 || Number.isInteger(value) ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${units[unit]}`;
}

/** "10 minutes", "90 seconds", "1 minute 30 seconds". */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  const parts = [];
  if (minutes) parts.push(`${minutes} minute${minutes === 1 ? "" : "s"}`);
  if (rest || !minutes) parts.push(`${rest} second${rest === 1 ? "" : "s"}`);
  return parts.join(" ");
}
