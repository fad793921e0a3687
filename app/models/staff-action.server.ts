import { staffActions, type StaffAction, type StaffActionSubject } from "drizzle/schema";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type NewStaffAction = Pick<StaffAction, "actorId" | "actorEmail" | "action" | "subjectType" | "subjectId"> &
  Partial<Pick<StaffAction, "details" | "idempotencyKey">>;

/** Records what staff did; an action carrying a key already recorded records nothing and returns null. */
export async function insertStaffAction(db: Db, input: NewStaffAction) {
  const [made] = await db.insert(staffActions).values(input).onConflictDoNothing({ target: staffActions.idempotencyKey }).returning();
  return made ?? null;
}

/** The newest actions on one thing, newest first. */
export async function listStaffActionsOn(db: Db, subjectType: StaffActionSubject, subjectId: string, limit = 20) {
  return db
    .select()
    .from(staffActions)
    .where(and(eq(staffActions.subjectType, subjectType), eq(staffActions.subjectId, subjectId)))
    .orderBy(desc(staffActions.createdAt), desc(staffActions.id))
    .limit(limit);
}
