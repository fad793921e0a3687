import { redirect, type Session } from "@remix-run/node";
import type { User } from "drizzle/schema";
import type { AuthedUser } from "~/domain/membership";
import { hasEditRights, isAdmin } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { forbidden, unauthorized } from "~/lib/http.server";
import { findUserById } from "~/models/user.server";
import { commitSession, destroySession, getSession, type SessionData } from "./session.server";

/** What the browser may know of a user (spec §3 "Authed user"). */
export function toAuthedUser(user: User): AuthedUser {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    subscriptionId: user.subscriptionId,
    hasLegacyB2bSubscription: user.hasLegacyB2bSubscription,
  };
}

export interface AuthState {
  session: Session<SessionData>;
  user: User | null;
  /** The admin acting as `user`, while impersonating. */
  impersonator: User | null;
}

const stateByRequest = new WeakMap<Request, Promise<AuthState>>();

/** Who is asking: read once per request, however many loaders ask. */
export function getAuthState(request: Request): Promise<AuthState> {
  let state = stateByRequest.get(request);
  if (!state) {
    state = (async () => {
      const session = await getSession(request);
      const userId = session.get("userId");
      const impersonatorId = session.get("impersonatorId");
      const found = userId ? await findUserById(db(), userId) : null;
      // A disabled account's sessions end when staff disable it; one that slipped through counts for nothing.
      const user = found?.disabledAt ? null : found;
      const impersonator = user && impersonatorId ? await findUserById(db(), impersonatorId) : null;
      return { session, user, impersonator };
    })();
    stateByRequest.set(request, state);
  }
  return state;
}

export async function getUser(request: Request) {
  return (await getAuthState(request)).user;
}

export { safeRedirect } from "~/lib/safe-redirect";

/** For pages: the user, or a redirect to the log-in page that comes back here afterwards. */
export async function requireUser(request: Request) {
  const user = await getUser(request);
  if (user) return user;
  const url = new URL(request.url);
  throw redirect(`/auth/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** For API routes: the user, or a 401 answer. */
export async function requireApiUser(request: Request) {
  const user = await getUser(request);
  if (!user) throw unauthorized();
  return user;
}

export async function requireApiAdmin(request: Request) {
  return adminOnly(await getUser(request));
}

/** The user when they are an administrator: 401 for no one, 403 for anyone else. */
export function adminOnly(user: User | null) {
  if (!user) throw unauthorized();
  if (!isAdmin(user)) throw forbidden("Only administrators can do that.");
  return user;
}

export async function requireStaff(request: Request) {
  const user = await requireUser(request);
  if (!hasEditRights(user)) throw new Response("Not found", { status: 404 });
  return user;
}

/**
 * For staff pages about money, announcements and the audit log: administrators only. Anyone who is
 * not staff finds nothing here, as with every staff page; an editor is told the page is for
 * administrators.
 */
export async function requireAdmin(request: Request) {
  const user = await requireStaff(request);
  if (!isAdmin(user)) throw new Response("Only administrators can see this page.", { status: 403 });
  return user;
}

/**
 * Starts a fresh session for `userId` (a new id, so a session fixed before log-in
 * is worthless) and returns its Set-Cookie header.
 */
export async function startUserSession(request: Request, userId: string, impersonatorId?: string) {
  const previous = await getSession(request);
  if (previous.id) await destroySession(previous);
  const session = await getSession(new Request("http://local/"));
  session.set("userId", userId);
  if (impersonatorId) session.set("impersonatorId", impersonatorId);
  return commitSession(session);
}

export async function endUserSession(request: Request) {
  return destroySession(await getSession(request));
}
