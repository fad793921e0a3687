// The realtime contract shared by server and browser (spec §4, §9).
export const REALTIME_NAMESPACES = ["/public", "/users", "/staff"] as const;
export type RealtimeNamespace = (typeof REALTIME_NAMESPACES)[number];

/** Reconnection of the browser client (spec §9). */
export const RECONNECTION = {
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20000,
} as const;

export interface TrackFields {
  id: string;
  [field: string]: unknown;
}

export interface NotificationPayload {
  id: string;
  kind: string;
  title: string;
  body: string;
  url: string | null;
  eventId: string | null;
  createdAt: string;
  seenAt: string | null;
  readAt: string | null;
}

/** A render job as its progress is shown live (percent, ETA) to the organiser and staff. */
export interface RenderJobUpdate {
  id: string;
  eventId: string;
  eventUuid: string;
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  /** Running, and asked to stop: it ends cancelled, having published nothing. */
  stopping: boolean;
  resolution: string;
  publishWhenDone: boolean;
  percent: number;
  etaSeconds: number | null;
  durationSeconds: number | null;
  piecesRendered: number;
  piecesReused: number;
  error: string | null;
  /** How many times a worker has taken the render up. */
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A Chorus's gift-card pot and tree count, as everyone on its page sees them grow. */
export interface PotUpdate {
  eventUuid: string;
  gift: { id: string; potTotal: number; contributions: number; currency: string } | null;
  trees: number;
}

export interface ServerToClientEvents {
  /** Fields to merge into the track with that id. */
  "track:updated": (fields: TrackFields) => void;
  "session:ready": (info: { namespace: RealtimeNamespace; userId: string | null }) => void;
  /** A new notification for the user of this `/users` room. */
  "notification:new": (notification: NotificationPayload) => void;
  /** Public room of an event: an upload's progress through processing. */
  "media:status": (status: { mediaUuid: string; status: string; kind: string | null }) => void;
  /** The organiser: a contribution arrived or changed (the full item, with signed links). */
  "media:updated": (update: { eventUuid: string; media: Record<string, unknown> }) => void;
  /** The organiser and staff: a render's status and progress. */
  "render:progress": (job: RenderJobUpdate) => void;
  /** Public room of an event: its gift-card pot or tree count changed (a contribution paid or refunded). */
  "pot:updated": (pot: PotUpdate) => void;
  /** The organiser: more scenes of the event's next render were rendered ahead. */
  "render:prepared": (prepared: { eventUuid: string }) => void;
  /** Staff: someone reported an event page. */
  "event:reported": (report: { eventId: string; eventUuid: string; reason: string }) => void;
}

export interface ClientToServerEvents {
  /** Public pages join the room of the event they show. */
  "event:join": (eventUuid: string) => void;
  "event:leave": (eventUuid: string) => void;
}

export const roomOfUser = (userId: string) => `user:${userId}`;
export const roomOfEvent = (eventUuid: string) => `event:${eventUuid}`;
