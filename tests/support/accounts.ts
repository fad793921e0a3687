import crypto from "node:crypto";
import { authTokens, outboxMessages, users } from "drizzle/schema";
import { and, asc, desc, eq } from "drizzle-orm";
import { db } from "~/lib/db.server";
import { hashPassword } from "~/lib/password.server";
import { insertUser } from "~/models/user.server";
import { TestClient } from "./http-client";

export const uniqueEmail = (label = "user") => `${label}-${crypto.randomBytes(5).toString("hex")}@example.test`;
export const PASSWORD = "correct horse battery";

// One argon2id hash of PASSWORD per test file, stored for every account it creates: each hash takes
// 19 MiB and ~20 ms of CPU (app/lib/password.server.ts), and the test files create hundreds of
// accounts between them. Each stored hash is still a real one of the password, which logging in
// verifies as it verifies any other; a failed hash is made again by the next account.
let passwordHash: Promise<string> | undefined;
function hashOfPassword() {
  passwordHash ??= hashPassword(PASSWORD).catch((error: unknown) => {
    passwordHash = undefined;
    throw error;
  });
  return passwordHash;
}

/** A verified account straight in the database, for tests about something else than sign-up. */
export async function createUser(options: { role?: "user" | "editor" | "admin"; email?: string; verified?: boolean } = {}) {
  const email = options.email ?? uniqueEmail(options.role ?? "user");
  const user = await insertUser(db(), {
    email,
    passwordHash: await hashOfPassword(),
    role: options.role ?? "user",
    emailVerifiedAt: options.verified === false ? undefined : new Date(),
  });
  return user;
}

export async function logIn(client: TestClient, email: string, password = PASSWORD) {
  const reply = await client.post("/api/v2/auth/login", { email, password });
  if (reply.status !== 200) throw new Error(`log-in failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.user as { id: string; email: string; role: string };
}

/** The newest message in the local outbox for an address. */
export async function lastMailTo(email: string) {
  const [message] = await db()
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.to, email))
    .orderBy(desc(outboxMessages.createdAt))
    .limit(1);
  return message ?? null;
}

/** Every message in the local outbox for an address, oldest first. */
export async function mailsTo(email: string) {
  return db().select().from(outboxMessages).where(eq(outboxMessages.to, email)).orderBy(asc(outboxMessages.createdAt));
}

/** The path of the first link in a mail's text that contains `fragment`. */
export function linkIn(text: string, fragment: string) {
  const url = text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(fragment));
  if (!url) throw new Error(`no link with ${fragment} in:\n${text}`);
  return new URL(url).pathname;
}

export async function expireTokensOf(email: string) {
  const [user] = await db().select().from(users).where(eq(users.email, email));
  await db()
    .update(authTokens)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(and(eq(authTokens.userId, user!.id)));
}

/** A new account of `role`, logged in through the API on its own client. */
export async function loggedInUser(baseUrl: string, role: "user" | "editor" | "admin" = "user") {
  const user = await createUser({ role });
  const client = new TestClient(baseUrl);
  await logIn(client, user.email);
  return { user, client };
}
