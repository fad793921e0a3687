import type { User } from "drizzle/schema";
import { loginSlowdownMs } from "~/domain/account-rules";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, badRequest } from "~/lib/http.server";
import { hashPassword, verifyAgainstNothing, verifyPassword } from "~/lib/password.server";
import { deleteExpiredSessions, deleteSessionsOfUser } from "~/models/auth-session.server";
import { consumeToken, issueToken, type ConsumedToken } from "~/models/auth-token.server";
import { deleteExpiredDrafts } from "~/models/start-draft.server";
import { findUserByEmail, findUserById, insertUser, updateUser } from "~/models/user.server";
import {
  sendEmailChangeConfirmation,
  sendEmailChangedNotice,
  sendPasswordResetEmail,
  sendVerificationEmail,
} from "~/services/accounts/auth-mail.server";
import {
  countAttempt,
  failuresOf,
  forgetAttempts,
  rateLimitKeys,
  recordFailure,
  refuseIfExhausted,
} from "~/services/accounts/rate-limit.server";

const HOUR = 60 * 60 * 1000;
const TTL = { verify: 48 * HOUR, reset: HOUR, changeEmail: 24 * HOUR };

export class EmailNotVerifiedError extends ApiError {
  constructor() {
    super(403, "EMAIL_NOT_VERIFIED", "Please confirm your e-mail address first. We can send you a new link.");
  }
}

class AccountDisabledError extends ApiError {
  constructor() {
    super(403, "ACCOUNT_DISABLED", "This account has been disabled. Please write to our support team if you think this is a mistake.");
  }
}

const wrongCredentials = () =>
  new ApiError(401, "INVALID_CREDENTIALS", "That e-mail and password do not match an account.", {
    password: "That e-mail and password do not match an account.",
  });

/**
 * Checks a password log-in. Attempts are counted per address of the caller (across accounts),
 * and wrong passwords per account and address: an address that guessed too often must wait. Wrong
 * passwords from everywhere only slow the account's log-ins down, so nobody can lock its owner out.
 */
export async function logInWithPassword(input: { email: string; password: string; ip: string }): Promise<User> {
  const { LOGIN_LIMIT_PER_IP, LOGIN_LIMIT_PER_ACCOUNT, LOGIN_SLOWDOWN_MS, LOGIN_SLOWDOWN_MAX_MS } = env();
  const accountKey = rateLimitKeys.loginAccount(input.email);
  const fromHereKey = rateLimitKeys.loginAccountFromIp(input.email, input.ip);
  await countAttempt(rateLimitKeys.loginIp(input.ip), LOGIN_LIMIT_PER_IP);
  await refuseIfExhausted(fromHereKey, LOGIN_LIMIT_PER_ACCOUNT);
  const wait = loginSlowdownMs(await failuresOf(accountKey), {
    limit: LOGIN_LIMIT_PER_ACCOUNT,
    stepMs: LOGIN_SLOWDOWN_MS,
    maxMs: LOGIN_SLOWDOWN_MAX_MS,
  });
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));

  const user = await findUserByEmail(db(), input.email);
  const matches = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstNothing(input.password);
  if (!user || !matches) {
    await recordFailure(accountKey);
    await recordFailure(fromHereKey);
    throw wrongCredentials();
  }
  await forgetAttempts(accountKey);
  await forgetAttempts(fromHereKey);
  // Said only to whoever knows the password, so it tells no one else the account exists.
  if (user.disabledAt) throw new AccountDisabledError();
  if (!user.emailVerifiedAt) {
    await startEmailVerification(user);
    throw new EmailNotVerifiedError();
  }
  return user;
}

export async function register(input: { email: string; password: string; firstName: string; lastName: string; ip: string }) {
  await countAttempt(rateLimitKeys.signupIp(input.ip), env().LOGIN_LIMIT_PER_IP);
  if (await findUserByEmail(db(), input.email)) {
    throw new ApiError(409, "EMAIL_TAKEN", "An account with this e-mail already exists. Log in instead?", {
      email: "An account with this e-mail already exists. Log in instead?",
    });
  }
  const passwordHash = await hashPassword(input.password);
  const user = await db().transaction((tx) => insertUser(tx, { ...input, passwordHash }));
  await startEmailVerification(user);
  return user;
}

export async function startEmailVerification(user: User) {
  const token = await issueToken(db(), { userId: user.id, kind: "verify_email", ttlMs: TTL.verify });
  await sendVerificationEmail(user.email, token);
}

/** Sends a new link to an unverified account; says nothing about whether the address exists. */
export async function resendVerification(email: string, ip: string) {
  await countAttempt(rateLimitKeys.resetIp(ip), env().RESET_LIMIT_PER_IP);
  await countAttempt(rateLimitKeys.resetAccount(email), env().RESET_LIMIT_PER_ACCOUNT);
  const user = await findUserByEmail(db(), email);
  if (user && !user.emailVerifiedAt) await startEmailVerification(user);
}

const tokenProblem = (reason: Exclude<ConsumedToken, { ok: true }>["reason"]) => {
  const messages = {
    unknown: "This link is not valid. Please check that you copied all of it.",
    used: "This link was already used. Each link works only once.",
    expired: "This link has expired. Please ask for a new one.",
  } as const;
  return new ApiError(reason === "unknown" ? 404 : 410, `TOKEN_${reason.toUpperCase()}`, messages[reason]);
};

/** Follows a link from an e-mail: confirms a new account, or a change of e-mail address. */
export async function activateWithToken(token: string) {
  const verified = await consumeToken(db(), token, "verify_email");
  if (verified.ok) {
    const user = await updateUser(db(), verified.userId, { emailVerifiedAt: new Date() });
    return { kind: "verified" as const, user: user! };
  }
  const changed = await consumeToken(db(), token, "change_email");
  if (changed.ok && changed.newEmail) {
    if (await findUserByEmail(db(), changed.newEmail)) {
      throw new ApiError(409, "EMAIL_TAKEN", "Another account started using this address in the meantime.");
    }
    const before = await findUserById(db(), changed.userId);
    const user = await updateUser(db(), changed.userId, { email: changed.newEmail, emailVerifiedAt: new Date() });
    if (before) await sendEmailChangedNotice(before.email, changed.newEmail);
    return { kind: "email-changed" as const, user: user! };
  }
  // Report the most telling reason across both kinds.
  const reasons = [verified, changed].map((r) => (r.ok ? "unknown" : r.reason));
  throw tokenProblem(reasons.includes("used") ? "used" : reasons.includes("expired") ? "expired" : "unknown");
}

/** Always answers the same way, so the form cannot be used to find accounts. */
export async function requestPasswordReset(email: string, ip: string) {
  await countAttempt(rateLimitKeys.resetIp(ip), env().RESET_LIMIT_PER_IP);
  await countAttempt(rateLimitKeys.resetAccount(email), env().RESET_LIMIT_PER_ACCOUNT);
  const user = await findUserByEmail(db(), email);
  if (!user) return;
  const token = await issueToken(db(), { userId: user.id, kind: "reset_password", ttlMs: TTL.reset });
  await sendPasswordResetEmail(user.email, token);
}

export async function resetPassword(token: string, password: string, ip: string) {
  await countAttempt(rateLimitKeys.resetIp(ip), env().RESET_LIMIT_PER_IP);
  const consumed = await consumeToken(db(), token, "reset_password");
  if (!consumed.ok) throw tokenProblem(consumed.reason);
  // Following the link proves the address, so it also counts as verification.
  const user = await updateUser(db(), consumed.userId, {
    passwordHash: await hashPassword(password),
    emailVerifiedAt: new Date(),
  });
  await deleteSessionsOfUser(db(), consumed.userId);
  return user!;
}

export async function changePassword(user: User, input: { currentPassword: string; newPassword: string; sessionId?: string }) {
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest("Your current password is not right.", { currentPassword: "Your current password is not right." });
  }
  await updateUser(db(), user.id, { passwordHash: await hashPassword(input.newPassword) });
  await deleteSessionsOfUser(db(), user.id, input.sessionId);
}

/** Sends a confirmation link to the new address; the login changes only once it is followed. */
export async function requestEmailChange(user: User, input: { email: string; password: string }) {
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw badRequest("Your password is not right.", { password: "Your password is not right." });
  }
  if (input.email.toLowerCase() === user.email.toLowerCase()) {
    throw badRequest("That is already your e-mail address.", { email: "That is already your e-mail address." });
  }
  if (await findUserByEmail(db(), input.email)) {
    throw new ApiError(409, "EMAIL_TAKEN", "Another account uses this address.", { email: "Another account uses this address." });
  }
  const token = await issueToken(db(), {
    userId: user.id,
    kind: "change_email",
    ttlMs: TTL.changeEmail,
    newEmail: input.email.trim().toLowerCase(),
  });
  await sendEmailChangeConfirmation(input.email, token);
}

export async function checkUser(email: string, ip: string) {
  await countAttempt(rateLimitKeys.lookupIp(ip), env().LOGIN_LIMIT_PER_IP);
  const user = await findUserByEmail(db(), email);
  return { exists: !!user, verified: !!user?.emailVerifiedAt };
}

/** Log-in sessions and "start a Chorus" drafts past their expiry leave the database (a nightly job). */
export async function sweepExpiredSessions() {
  await deleteExpiredSessions(db());
  await deleteExpiredDrafts(db());
}
