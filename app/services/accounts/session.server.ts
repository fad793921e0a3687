import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { secureCookies } from "~/lib/env.server";
import { sessionSecrets } from "~/lib/session-secret.server";
import { singleton } from "~/lib/singleton.server";
import { deleteSession, findLiveSession, insertSession, updateSession } from "~/models/auth-session.server";

export const SESSION_COOKIE = "__session";
const THIRTY_DAYS = 60 * 60 * 24 * 30;

export interface SessionData {
  userId?: string;
  impersonatorId?: string;
  [key: string]: unknown;
}

const defaultExpiry = () => new Date(Date.now() + THIRTY_DAYS * 1000);

function split(data: Partial<SessionData>) {
  const { userId, impersonatorId, ...rest } = data;
  return { userId: userId ?? null, impersonatorId: impersonatorId ?? null, data: rest };
}

/** Sessions live in PostgreSQL; the signed cookie carries only a random id. */
export function sessionStorage() {
  return singleton("sessionStorage", () =>
    createSessionStorage<SessionData>({
      cookie: createCookie(SESSION_COOKIE, {
        httpOnly: true,
        sameSite: "lax",
        secure: secureCookies(),
        path: "/",
        maxAge: THIRTY_DAYS,
        secrets: sessionSecrets(),
      }),
      async createData(data, expires) {
        return insertSession(db(), split(data), expires ?? defaultExpiry());
      },
      async readData(id) {
        const row = await findLiveSession(db(), id);
        if (!row) return null;
        return { ...row.data, userId: row.userId ?? undefined, impersonatorId: row.impersonatorId ?? undefined };
      },
      async updateData(id, data, expires) {
        await updateSession(db(), id, split(data), expires ?? defaultExpiry());
      },
      async deleteData(id) {
        await deleteSession(db(), id);
      },
    }),
  );
}

export const getSession = (request: Request) => sessionStorage().getSession(request.headers.get("Cookie"));
export const commitSession = (session: Session<SessionData>) => sessionStorage().commitSession(session);
export const destroySession = (session: Session<SessionData>) => sessionStorage().destroySession(session);

/** The session id behind a Cookie header, for socket handshakes that never reach Remix. */
export async function sessionUserIdFromCookie(cookieHeader: string | undefined) {
  const session = await sessionStorage().getSession(cookieHeader);
  return session.get("userId") ?? null;
}
