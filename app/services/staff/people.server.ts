import type { User, UserRole } from "drizzle/schema";
import { z } from "zod";
import { formatMoney } from "~/domain/commerce/money";
import { hasEditRights } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { badRequest, notFound } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { deleteSessionsOfUser } from "~/models/auth-session.server";
import { listEventsOfCreator } from "~/models/event.server";
import { listPaymentsOfUser } from "~/models/payment.server";
import { findProfileOfUser } from "~/models/user-profile.server";
import { findUserById, searchUsers, updateUser } from "~/models/user.server";
import { disconnectPerson } from "~/realtime/server.server";
import { startEmailVerification } from "~/services/accounts/auth.server";
import { recentStaffActions, recordStaffAction } from "./staff-actions.server";

// People as administrators and editors find them at /admin/people, and what administrators may do
// to an account there: its role, a new confirmation e-mail, and disabling or enabling it.

export const PEOPLE_PAGE_SIZE = 25;

type Staff = Pick<User, "id" | "email">;

const personRow = (row: { user: User; firstName: string | null; lastName: string | null }) => ({
  id: row.user.id,
  email: row.user.email,
  name: [row.firstName, row.lastName].filter(Boolean).join(" "),
  role: row.user.role,
  verified: !!row.user.emailVerifiedAt,
  disabled: !!row.user.disabledAt,
  createdAt: row.user.createdAt.toISOString(),
});

/** A page of accounts, newest first, optionally only those whose e-mail or name contains `search`. */
export async function searchPeople(options: { search: string | null; page: number }) {
  const rows = await searchUsers(db(), {
    search: options.search,
    limit: PEOPLE_PAGE_SIZE + 1,
    offset: (options.page - 1) * PEOPLE_PAGE_SIZE,
  });
  return { people: rows.slice(0, PEOPLE_PAGE_SIZE).map(personRow), hasMore: rows.length > PEOPLE_PAGE_SIZE };
}

async function requirePerson(rawId: string | undefined) {
  const user = await findUserById(db(), uuidParam(rawId, "person"));
  if (!user) throw notFound("There is no person with this id.");
  return user;
}

/** Membership as the payment service last told it, in words. */
function membershipWords(user: User) {
  if (user.hasLegacyB2bSubscription) return "Member (business subscription)";
  if (!user.subscriptionId && !user.membershipStatus) return "Not a member";
  const parts = [user.membershipStatus ?? "unknown", user.membershipPlan].filter(Boolean);
  const until = user.membershipEndsAt
    ? `, ends ${user.membershipEndsAt.toISOString()}`
    : user.membershipRenewsAt
      ? `, renews ${user.membershipRenewsAt.toISOString()}`
      : "";
  return `${parts.join(" · ")}${until}`;
}

/** One person for staff: their account, Choruses, membership, payments and what staff did to them. */
export async function personForStaff(rawId: string | undefined) {
  const user = await requirePerson(rawId);
  const [profile, choruses, payments, actions] = await Promise.all([
    findProfileOfUser(db(), user.id),
    listEventsOfCreator(db(), user.id, { withDeleted: true }),
    listPaymentsOfUser(db(), user.id),
    recentStaffActions({ type: "user", id: user.id }),
  ]);
  return {
    person: {
      ...personRow({ user, firstName: profile?.firstName ?? null, lastName: profile?.lastName ?? null }),
      disabledAt: user.disabledAt?.toISOString() ?? null,
      membership: membershipWords(user),
    },
    choruses: choruses.map(({ event }) => ({
      id: event.id,
      uuid: event.uuid,
      code: event.eventId,
      title: event.title || "Untitled Chorus",
      createdAt: event.createdAt.toISOString(),
      paid: event.paid,
      published: !!event.publishedMedia,
      takenDown: !!event.takenDownAt,
      deleted: !!event.deletedAt,
    })),
    payments: payments.map((row) => ({
      id: row.payment.id,
      createdAt: row.payment.createdAt.toISOString(),
      amount: formatMoney(row.payment.amount, row.payment.currency),
      status: row.payment.status,
      chorus: row.eventUuid ? { uuid: row.eventUuid, title: row.eventTitle || "Untitled Chorus" } : null,
    })),
    actions,
  };
}

export const roleInput = z.object({ role: z.enum(["user", "editor", "admin"], { message: "Choose user, editor or admin." }) });

/** An administrator gives someone else another role. */
export async function changeRole(admin: Staff, rawId: string | undefined, role: UserRole) {
  const person = await requirePerson(rawId);
  if (person.id === admin.id) throw badRequest("You cannot change your own role: ask another administrator.");
  if (person.role === role) return person;
  const updated = await db().transaction(async (tx) => {
    const saved = await updateUser(tx, person.id, { role });
    await recordStaffAction(
      admin,
      "role_changed",
      { type: "user", id: person.id },
      { email: person.email, from: person.role, to: role },
      { tx },
    );
    return saved!;
  });
  // Staff rooms are only for editors and administrators: one who is no longer either stops hearing them.
  if (!hasEditRights(updated)) await disconnectPerson(person.id, ["/staff"]);
  return updated;
}

/** A new confirmation link for an account whose e-mail is not confirmed yet, by the usual mail. */
export async function resendVerificationFor(admin: Staff, rawId: string | undefined) {
  const person = await requirePerson(rawId);
  if (person.emailVerifiedAt) throw badRequest("This e-mail address is already confirmed.");
  await startEmailVerification(person);
  await recordStaffAction(admin, "verification_resent", { type: "user", id: person.id }, { email: person.email });
  return person;
}

/**
 * Disables an account: it cannot log in, and every session it has ends at once (the sessions are
 * rows in PostgreSQL, so an old cookie finds nothing). Not one's own.
 */
export async function disableAccount(admin: Staff, rawId: string | undefined) {
  const person = await requirePerson(rawId);
  if (person.id === admin.id) throw badRequest("You cannot disable your own account.");
  if (person.disabledAt) return person;
  return db()
    .transaction(async (tx) => {
      const saved = await updateUser(tx, person.id, { disabledAt: new Date() });
      await deleteSessionsOfUser(tx, person.id);
      await recordStaffAction(admin, "account_disabled", { type: "user", id: person.id }, { email: person.email }, { tx });
      return saved!;
    })
    .then(async (saved) => {
      // Their sessions are gone; so must be the pages they still have open.
      await disconnectPerson(person.id);
      return saved;
    });
}

/** Lets a disabled account log in again. */
export async function enableAccount(admin: Staff, rawId: string | undefined) {
  const person = await requirePerson(rawId);
  if (!person.disabledAt) return person;
  return db().transaction(async (tx) => {
    const saved = await updateUser(tx, person.id, { disabledAt: null });
    await recordStaffAction(admin, "account_enabled", { type: "user", id: person.id }, { email: person.email }, { tx });
    return saved!;
  });
}
