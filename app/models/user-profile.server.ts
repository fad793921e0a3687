import { userProfiles, type UserProfile } from "drizzle/schema";
import { eq } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export async function findProfileById(db: Db, id: string) {
  const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.id, id)).limit(1);
  return profile ?? null;
}

export async function findProfileOfUser(db: Db, userId: string) {
  const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  return profile ?? null;
}

export type ProfileChanges = Partial<Pick<UserProfile, "firstName" | "lastName" | "phone" | "timeZone" | "marketingOptIn">>;

export async function updateProfile(db: Db, id: string, changes: ProfileChanges) {
  const [profile] = await db
    .update(userProfiles)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(userProfiles.id, id))
    .returning();
  return profile ?? null;
}
