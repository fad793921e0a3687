import type { ViewerRole } from "./viewer-role";

// Spec §4 "Media actions" and §7.2: who may do what to one photo or clip, and the checks on
// a change that need no database. Services gather the facts; these functions decide.

export type MediaAction =
  | "view"
  /** Caption and contributor name: the words around the item. */
  | "edit-details"
  /** Position, trim and hidden: how the item sits in the montage. */
  | "arrange"
  | "archive"
  | "restore"
  | "duplicate"
  | "retry"
  | "regenerate"
  | "upscale"
  | "review-upscale"
  | "revert"
  | "edit-photo";

export interface MediaCaller {
  /** Role on the item's event (spec §4); "creator" includes admins. */
  role: ViewerRole;
  userId: string | null;
  /** The X-Upload-Token sent hashes to the item's uploadTokenHash. */
  holdsUploadToken: boolean;
  /** `?v=` matches the event's privateKey. */
  holdsPrivateKey: boolean;
  /** Any credential at all was sent: a session, an upload token or a key. */
  identified: boolean;
  /**
   * Staff with edit rights (admins and editors, spec §6) manage any Chorus's contributions as its
   * organiser does: hide, rearrange, caption, take down or restore an item.
   */
  editRights?: boolean;
}

export interface MediaFacts {
  uploaderId: string | null;
  purpose: "contribution" | "thank_you";
  archived: boolean;
}

export type MediaRelation = "organiser" | "uploader" | "recipient" | "stranger";
export type MediaRefusal = "unauthorized" | "forbidden" | "not-found";
export type MediaDecision = { allowed: true; relation: MediaRelation } | { allowed: false; relation: MediaRelation; refusal: MediaRefusal };

/**
 * How the caller stands to the item. The organiser (or staff with edit rights) first; then the contributor who sent it
 * (by the token their browser kept, or the account that uploaded or claimed it); then the
 * recipient, for their own thank-you video only. An archived item is gone for everyone but
 * the organiser: the contributor deleted it, or the organiser chose to leave it out.
 */
export function relationTo(caller: MediaCaller, item: MediaFacts): MediaRelation {
  if (caller.role === "creator" || caller.editRights) return "organiser";
  if (item.archived) return "stranger";
  if (caller.holdsUploadToken || (!!caller.userId && caller.userId === item.uploaderId)) return "uploader";
  if (caller.holdsPrivateKey && item.purpose === "thank_you") return "recipient";
  return "stranger";
}

const ALLOWED: Record<Exclude<MediaRelation, "organiser" | "stranger">, ReadonlySet<MediaAction>> = {
  // A contributor may reword or take back what they sent, never rearrange the organiser's montage.
  uploader: new Set(["view", "edit-details", "archive"]),
  // DELETE /v2/media/{id}?v=privateKey (spec §7.2): the recipient removes their thank-you video.
  recipient: new Set(["view", "archive"]),
};

/**
 * Whether `caller` may do `action` to `item`. Refusals say how to answer: someone with no
 * link to the item learns nothing about it (not-found, or unauthorized when they sent no
 * credential at all); someone who knows it but may not do this is forbidden.
 */
export function decideMediaAccess(action: MediaAction, caller: MediaCaller, item: MediaFacts): MediaDecision {
  const relation = relationTo(caller, item);
  if (relation === "organiser") return { allowed: true, relation };
  if (relation === "stranger") {
    const refusal = caller.identified || action === "view" ? "not-found" : "unauthorized";
    return { allowed: false, relation, refusal };
  }
  return ALLOWED[relation].has(action) ? { allowed: true, relation } : { allowed: false, relation, refusal: "forbidden" };
}

export type ClaimDecision = { allowed: true } | { allowed: false; refusal: "unauthorized" | "not-found" | "conflict" };

/** PUT /v2/media/{id}/claim: a logged-in contributor proves with their upload token that the item is theirs. */
export function decideClaim(claim: { userId: string | null; holdsUploadToken: boolean; uploaderId: string | null }): ClaimDecision {
  if (!claim.userId) return { allowed: false, refusal: "unauthorized" };
  if (!claim.holdsUploadToken) return { allowed: false, refusal: "not-found" };
  if (claim.uploaderId && claim.uploaderId !== claim.userId) return { allowed: false, refusal: "conflict" };
  return { allowed: true };
}

const DETAIL_FIELDS = new Set(["caption", "contributorName"]);

/** The action a PUT amounts to: wording only, or arranging the montage. */
export const actionForChanges = (changes: Record<string, unknown>): MediaAction =>
  Object.keys(changes).every((key) => DETAIL_FIELDS.has(key)) ? "edit-details" : "arrange";

/** A trimmed clip keeps at least this much: less cannot be seen in the montage. */
export const MIN_KEPT_SECONDS = 1;
// Durations are probed floats (2.0333…); a trim at the very end may round a hair past them.
const EPSILON = 0.001;

export interface TrimTarget {
  kind: "photo" | "video" | null;
  durationSeconds: number | null;
  trimStart: number;
  trimEnd: number | null;
}

export type TrimResult = { ok: true; trimStart: number; trimEnd: number | null } | { ok: false; errors: Record<string, string> };

/**
 * A new trim for a clip, merged with the trim it has: 0 ≤ start < end ≤ duration and at
 * least MIN_KEPT_SECONDS kept. A null end means "to the end of the clip".
 */
export function checkTrim(change: { trimStart?: number; trimEnd?: number | null }, item: TrimTarget): TrimResult {
  const field = change.trimStart !== undefined ? "trimStart" : "trimEnd";
  if (item.kind !== "video") return { ok: false, errors: { [field]: "Only clips can be trimmed." } };
  if (item.durationSeconds === null)
    return { ok: false, errors: { [field]: "This clip is still being processed. Trim it once it's ready." } };
  const duration = item.durationSeconds;
  const trimStart = change.trimStart ?? item.trimStart;
  const trimEnd = change.trimEnd === undefined ? item.trimEnd : change.trimEnd;
  const end = trimEnd ?? duration;
  if (trimStart < 0) return { ok: false, errors: { trimStart: "Start at 0 seconds or later." } };
  if (end > duration + EPSILON)
    return { ok: false, errors: { trimEnd: `The clip is only ${formatDuration(duration, { precise: true })} long.` } };
  if (trimStart >= end) return { ok: false, errors: { trimStart: "The start must come before the end." } };
  if (end - trimStart < MIN_KEPT_SECONDS - EPSILON)
    return { ok: false, errors: { trimEnd: `Keep at least ${MIN_KEPT_SECONDS} second of the clip.` } };
  return { ok: true, trimStart, trimEnd };
}

/** Photos at least this wide (or tall) already fill a 1080p frame: upscaling adds nothing. */
export const UPSCALE_TARGET_EDGE = 1920;
export const MIN_UPSCALE_FACTOR = 2;
export const MAX_UPSCALE_FACTOR = 4;

/**
 * How much to enlarge a photo: 2×, or enough for its long edge to reach 1920 px, never
 * more than 4×. Null when the photo is already large enough.
 */
export function upscaleFactorFor(size: { width: number; height: number }): number | null {
  const longEdge = Math.max(size.width, size.height);
  if (longEdge >= UPSCALE_TARGET_EDGE || longEdge <= 0) return null;
  return Math.min(MAX_UPSCALE_FACTOR, Math.max(MIN_UPSCALE_FACTOR, UPSCALE_TARGET_EDGE / longEdge));
}

/**
 * The montage order after moving one item to index `to` (clamped to the list): every item
 * keeps its relative order, and positions are the indexes 0..n-1 with no gaps.
 */
export function moveInOrder<T extends string>(order: readonly T[], id: T, to: number): T[] {
  const rest = order.filter((item) => item !== id);
  if (rest.length === order.length) return [...order];
  const at = Math.max(0, Math.min(Math.trunc(to), rest.length));
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}

/** A clip's length as shown on its card: "0:12", "1:05", "1:02:03"; `precise` keeps tenths ("2.5 s" style for messages). */
export function formatDuration(seconds: number, { precise = false }: { precise?: boolean } = {}) {
  if (precise) return `${Math.round(seconds * 10) / 10} s`;
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
