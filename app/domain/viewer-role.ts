export type ViewerRole = "creator" | "recipient" | "view-only" | "public";

export interface RoleInputs {
  event: { status: string; creatorId: string };
  /** The logged-in user, if any. */
  user: { id: string; role: "user" | "editor" | "admin" } | null;
  /** A `privateKey` in the page address that matches the event's (checked by the caller). */
  hasPrivateKey: boolean;
  /** A `viewKey` in the page address that matches the event's (checked by the caller). */
  hasViewKey: boolean;
}

/**
 * The viewer's role on an event, in the exact order of spec §4:
 * 1. creator, if the event is active and the user created it;
 * 2. recipient, on the page with the private key;
 * 3. creator, if the user created it or is an admin;
 * 4. view-only, with the view key;
 * 5. otherwise public.
 * (So an organiser who opens the recipient's link after the event closed sees what the recipient sees.)
 */
export function deriveViewerRole({ event, user, hasPrivateKey, hasViewKey }: RoleInputs): ViewerRole {
  const isEventCreator = !!user && user.id === event.creatorId;
  if (event.status === "active" && isEventCreator) return "creator";
  if (hasPrivateKey) return "recipient";
  if (isEventCreator || user?.role === "admin") return "creator";
  if (hasViewKey) return "view-only";
  return "public";
}
