import type { StaffAction, StaffActionKind, StaffActionSubject, User } from "drizzle/schema";
import { formatMoney } from "~/domain/commerce/money";
import { STAFF_ACTION_WORDS } from "~/domain/staff-actions";
import { db, type Db } from "~/lib/db.server";
import { insertStaffAction, listStaffActionsOn } from "~/models/staff-action.server";

// The record of what staff did: who, to what, when, and what they said.

/** Records an action by `actor`; with an idempotency key already recorded, records nothing and returns null. */
export function recordStaffAction(
  actor: Pick<User, "id" | "email">,
  action: StaffActionKind,
  subject: { type: StaffActionSubject; id: string },
  details: StaffAction["details"] = {},
  options: { idempotencyKey?: string; tx?: Db } = {},
) {
  return insertStaffAction(options.tx ?? db(), {
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    subjectType: subject.type,
    subjectId: subject.id,
    details,
    idempotencyKey: options.idempotencyKey ?? null,
  });
}

/** One action as a detail page lists it: when, who, what, and what they said. */
function actionView(action: StaffAction) {
  const { details } = action;
  const amount =
    typeof details.amount === "number" && typeof details.currency === "string" ? formatMoney(details.amount, details.currency) : null;
  return {
    id: action.id,
    at: action.createdAt.toISOString(),
    by: action.actorEmail,
    what: amount ? `${STAFF_ACTION_WORDS[action.action]}: ${amount}` : STAFF_ACTION_WORDS[action.action],
    reason: typeof details.reason === "string" ? details.reason : null,
    reference: typeof details.refundId === "string" ? details.refundId : null,
    refundAmount: action.action === "refund_requested" && typeof details.amount === "number" ? details.amount : null,
  };
}

export type StaffActionView = ReturnType<typeof actionView>;

/** The last actions on a payment or a code, newest first. */
export async function recentStaffActions(subject: { type: StaffActionSubject; id: string }, limit = 20) {
  return (await listStaffActionsOn(db(), subject.type, subject.id, limit)).map(actionView);
}
