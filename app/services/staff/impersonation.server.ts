import type { User } from "drizzle/schema";
import { isAdmin } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { badRequest, forbidden, notFound, unauthorized } from "~/lib/http.server";
import { findUserById } from "~/models/user.server";
import { recordStaffAction } from "~/services/staff/staff-actions.server";

/** Who is signed in, and the admin behind them while they impersonate. */
interface SignedIn {
  user: User | null;
  impersonator: User | null;
}

/**
 * Whether the signed-in admin may act as user `targetId`: the admin and the user to become, the
 * start recorded as a staff action. The route starts the session that remembers the admin to return to.
 */
export async function impersonate({ user, impersonator }: SignedIn, targetId: string) {
  if (!user) throw unauthorized();
  if (impersonator) throw badRequest("Stop impersonating before you impersonate someone else.");
  if (!isAdmin(user)) throw forbidden("Only administrators can impersonate users.");
  if (targetId === user.id) throw badRequest("You are already logged in as yourself.");
  const target = await findUserById(db(), targetId);
  if (!target) throw notFound("There is no user with this id.");
  if (target.disabledAt) throw badRequest("This account is disabled: enable it before you act as them.");
  // Recorded before the session starts, so no one is ever acted as without a trace in the audit log.
  await recordStaffAction(user, "impersonation_started", { type: "user", id: target.id }, { email: target.email });
  return { admin: user, target };
}

/** The admin to return to, when the signed-in user is being impersonated. */
export function stopImpersonating({ user, impersonator }: SignedIn) {
  if (!user) throw unauthorized();
  if (!impersonator) throw badRequest("You are not impersonating anyone.");
  return { admin: impersonator };
}
