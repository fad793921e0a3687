import { isAdmin } from "~/domain/membership";
import { getAuthState, startUserSession } from "~/lib/auth.server";
import { db } from "~/lib/db.server";
import { badRequest, forbidden, notFound, unauthorized } from "~/lib/http.server";
import { findUserById } from "~/models/user.server";

/** An admin acts as another user; the session remembers the admin to return to. */
export async function impersonate(request: Request, targetId: string) {
  const { user, impersonator } = await getAuthState(request);
  if (!user) throw unauthorized();
  if (impersonator) throw badRequest("Stop impersonating before you impersonate someone else.");
  if (!isAdmin(user)) throw forbidden("Only administrators can impersonate users.");
  if (targetId === user.id) throw badRequest("You are already logged in as yourself.");
  const target = await findUserById(db(), targetId);
  if (!target) throw notFound("There is no user with this id.");
  return { target, setCookie: await startUserSession(request, target.id, user.id) };
}

export async function stopImpersonating(request: Request) {
  const { user, impersonator } = await getAuthState(request);
  if (!user) throw unauthorized();
  if (!impersonator) throw badRequest("You are not impersonating anyone.");
  return { admin: impersonator, setCookie: await startUserSession(request, impersonator.id) };
}
