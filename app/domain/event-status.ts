import { acceptsContributions, type EventState } from "~/domain/event-permissions";

export type EventStatusKind = "collecting" | "deadline-passed" | "closed" | "delivered";

const LABELS: Record<EventStatusKind, string> = {
  collecting: "Collecting",
  "deadline-passed": "Deadline passed",
  closed: "Closed",
  delivered: "Delivered",
};

/** Where an event stands for its people: an active event past its deadline no longer collects. */
export function eventStatusOf(event: EventState, now = new Date()): { kind: EventStatusKind; label: string } {
  const kind: EventStatusKind =
    event.status === "delivered"
      ? "delivered"
      : event.status === "closed"
        ? "closed"
        : acceptsContributions(event, now)
          ? "collecting"
          : "deadline-passed";
  return { kind, label: LABELS[kind] };
}

/** Sent to its recipient already: delivered by us, or marked so. */
export const wasDelivered = (event: { status: string; deliveredAt?: Date | string | null }) =>
  !!event.deliveredAt || event.status === "delivered";
