import type { User } from "drizzle/schema";
import { canAccessAccountOf, isAdmin } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { forbidden, notFound } from "~/lib/http.server";
import { findProfileById, findProfileOfUser, updateProfile, type ProfileChanges } from "~/models/user-profile.server";
import { findUserById, updateUser } from "~/models/user.server";
import { toAuthedUser } from "~/services/accounts/current-user.server";

// Someone else's record answers "not found", so ids cannot be probed.
const hidden = (what: string) => notFound(`There is no ${what} with this id.`);

export async function readAccount(actor: User, userId: string) {
  if (!canAccessAccountOf(actor, userId)) throw hidden("user");
  const user = await findUserById(db(), userId);
  if (!user) throw hidden("user");
  const profile = await findProfileOfUser(db(), user.id);
  return { ...toAuthedUser(user), emailVerified: !!user.emailVerifiedAt, createdAt: user.createdAt, profileId: profile?.id ?? null };
}

/** Role and membership fields are administrators' to change; a user changes theirs through checkout. */
export async function updateAccount(
  actor: User,
  userId: string,
  changes: { role?: User["role"]; subscriptionId?: string | null; hasLegacyB2bSubscription?: boolean },
) {
  if (!canAccessAccountOf(actor, userId)) throw hidden("user");
  if (Object.keys(changes).length && !isAdmin(actor)) throw forbidden("Only administrators can change roles and memberships.");
  if (actor.id === userId && changes.role && changes.role !== "admin") throw forbidden("You cannot remove your own admin role.");
  const user = await updateUser(db(), userId, changes);
  if (!user) throw hidden("user");
  return readAccount(actor, userId);
}

export async function readProfile(actor: User, profileId: string) {
  const profile = await findProfileById(db(), profileId);
  if (!profile || !canAccessAccountOf(actor, profile.userId)) throw hidden("profile");
  return profile;
}

export async function changeProfile(actor: User, profileId: string, changes: ProfileChanges) {
  const profile = await readProfile(actor, profileId);
  if (profile.userId !== actor.id && !isAdmin(actor)) throw forbidden("Only the account's owner can change this profile.");
  return (await updateProfile(db(), profileId, changes))!;
}
