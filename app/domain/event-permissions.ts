import type { ViewerRole } from "./viewer-role";

export interface EventState {
  status: string;
  deadline: Date | string;
  deletedAt?: Date | string | null;
}

/** Contributions are open while the event is active and before its deadline (the creator can extend it). */
export function acceptsContributions(event: EventState, now = new Date()) {
  return !event.deletedAt && event.status === "active" && new Date(event.deadline).getTime() > now.getTime();
}

/** Only the creator (or an admin, who derives as creator) manages an event. */
export const canManageEvent = (role: ViewerRole) => role === "creator";
