import { userProfiles, users, type User, type UserRole } from "drizzle/schema";
import { desc, eq, ilike, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";
import { reusedQuery } from "~/lib/reused-query.server";

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

// Read for every signed-in request and every recipient's page: its SQL is built once (reused-query.server.ts).
const userById = reusedQuery((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .limit(1)
    .prepare("user_by_id"),
);

export async function findUserById(db: Db, id: string) {
  const [user] = await userById(db).execute({ id });
  return user ?? null;
}

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normaliseEmail(email)}`)
    .limit(1);
  return user ?? null;
}

export async function insertUser(
  db: Db,
  input: { email: string; passwordHash: string; role?: UserRole; emailVerifiedAt?: Date; firstName?: string; lastName?: string },
) {
  const [user] = await db
    .insert(users)
    .values({
      email: normaliseEmail(input.email),
      passwordHash: input.passwordHash,
      role: input.role ?? "user",
      emailVerifiedAt: input.emailVerifiedAt,
    })
    .returning();
  await db.insert(userProfiles).values({ userId: user!.id, firstName: input.firstName ?? "", lastName: input.lastName ?? "" });
  return user!;
}

type UserChanges = Partial<
  Pick<
    User,
    | "email"
    | "passwordHash"
    | "role"
    | "emailVerifiedAt"
    | "subscriptionId"
    | "hasLegacyB2bSubscription"
    | "paymentCustomerId"
    | "membershipStatus"
    | "membershipPlan"
    | "membershipRenewsAt"
    | "membershipEndsAt"
    | "membershipChangedAt"
    | "disabledAt"
  >
>;

export async function updateUser(db: Db, id: string, changes: UserChanges) {
  const values = { ...changes, ...(changes.email ? { email: normaliseEmail(changes.email) } : {}), updatedAt: new Date() };
  const [user] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return user ?? null;
}

/** The account the payment service knows as this customer. */
export async function findUserByPaymentCustomerId(db: Db, customerId: string) {
  const [user] = await db.select().from(users).where(eq(users.paymentCustomerId, customerId)).limit(1);
  return user ?? null;
}

/** The account whose membership is this subscription. */
export async function findUserBySubscriptionId(db: Db, subscriptionId: string) {
  const [user] = await db.select().from(users).where(eq(users.subscriptionId, subscriptionId)).limit(1);
  return user ?? null;
}

/** The account locked until the transaction ends: membership changes of one account apply one at a time. */
export async function lockUser(db: Db, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id)).for("update").limit(1);
  return user ?? null;
}

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Accounts for staff, newest first, with their names. `search` matches part of the e-mail, the
 * first or last name, or "first last", whatever the case.
 */
export async function searchUsers(db: Db, options: { search: string | null; limit: number; offset: number }) {
  const pattern = options.search ? `%${likeLiteral(options.search)}%` : null;
  return db
    .select({ user: users, firstName: userProfiles.firstName, lastName: userProfiles.lastName })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(
      pattern
        ? or(
            ilike(users.email, pattern),
            ilike(userProfiles.firstName, pattern),
            ilike(userProfiles.lastName, pattern),
            sql`(${userProfiles.firstName} || ' ' || ${userProfiles.lastName}) ilike ${pattern}`,
          )
        : undefined,
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(options.limit)
    .offset(options.offset);
}
