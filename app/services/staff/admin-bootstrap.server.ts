import { db } from "~/lib/db.server";
import { hashPassword } from "~/lib/password.server";
import { findUserByEmail, insertUser, updateUser } from "~/models/user.server";

/**
 * Makes sure the account named by ADMIN_EMAIL exists and is an admin. An existing
 * account is promoted without touching its password.
 */
export async function ensureAdmin(email: string, password: string | undefined) {
  const existing = await findUserByEmail(db(), email);
  if (existing) {
    if (existing.role !== "admin") await updateUser(db(), existing.id, { role: "admin" });
    return { created: false };
  }
  if (!password || password.length < 8) {
    throw new Error("ADMIN_PASSWORD (8+ characters) is needed to create the first admin account.");
  }
  const passwordHash = await hashPassword(password);
  await db().transaction((tx) => insertUser(tx, { email, passwordHash, role: "admin", emailVerifiedAt: new Date() }));
  return { created: true };
}
