import { staffActions, type StaffAction, type StaffActionKind, type StaffActionSubject } from "drizzle/schema";
import { and, asc, desc, eq, type SQL } from "drizzle-orm";
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

/** Every action, newest first, of one staff member and of one kind when asked. */
export async function listStaffActions(
  db: Db,
  filter: { actorEmail?: string; action?: StaffActionKind },
  page: { limit: number; offset: number },
) {
  const conditions: SQL[] = [];
  if (filter.actorEmail) conditions.push(eq(staffActions.actorEmail, filter.actorEmail));
  if (filter.action) conditions.push(eq(staffActions.action, filter.action));
  return db
    .select()
    .from(staffActions)
    .where(and(...conditions))
    .orderBy(desc(staffActions.createdAt), desc(staffActions.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Who has ever done something as staff, by the e-mail each action recorded. */
export async function listStaffActorEmails(db: Db) {
  const rows = await db.selectDistinct({ email: staffActions.actorEmail }).from(staffActions).orderBy(asc(staffActions.actorEmail));
  return rows.map((row) => row.email);
}

export async function findStaffActionById(db: Db, id: string) {
  const [row] = await db.select().from(staffActions).where(eq(staffActions.id, id)).limit(1);
  return row ?? null;
}
