import { createCookie, createSessionStorage } from "@remix-run/node";
import { z } from "zod";
import { emptyStartDraft, startDraftSchema, type StartDraft } from "~/domain/start-draft";
import { db } from "~/lib/db.server";
import { secureCookies } from "~/lib/env.server";
import { sessionSecrets } from "~/lib/session-secret.server";
import { singleton } from "~/lib/singleton.server";
import { deleteDraft, findLiveDraft, insertDraft, updateDraft } from "~/models/start-draft.server";

// The "Start a Chorus" draft is kept apart from the log-in session: logging in starts a fresh
// session and destroys the old one (see startUserSession), and an organiser who fills every
// step before logging in must find their draft intact afterwards. Its own signed cookie holds
// a random id; the draft itself is a row in start_drafts, so its size is not a cookie's.

const SEVEN_DAYS = 60 * 60 * 24 * 7;
const DRAFT_KEY = "draft";
const ERRORS_KEY = "errors";

const expiry = (expires?: Date) => expires ?? new Date(Date.now() + SEVEN_DAYS * 1000);

const storage = () =>
  singleton("startDraftStorage", () =>
    createSessionStorage({
      cookie: createCookie("__start_draft", {
        httpOnly: true,
        sameSite: "lax",
        secure: secureCookies(),
        path: "/",
        maxAge: SEVEN_DAYS,
        secrets: sessionSecrets(),
      }),
      createData: (data, expires) => insertDraft(db(), data, expiry(expires)),
      readData: async (id) => (await findLiveDraft(db(), id))?.data ?? null,
      updateData: (id, data, expires) => updateDraft(db(), id, data, expiry(expires)),
      deleteData: (id) => deleteDraft(db(), id),
    }),
  );

const getDraftSession = (request: Request) => storage().getSession(request.headers.get("Cookie"));

/**
 * The draft and any field errors left by a failed final submit. When errors were
 * waiting, `setCookie` clears them and must be sent with the answer.
 */
export async function loadStartDraft(request: Request) {
  const session = await getDraftSession(request);
  const parsed = startDraftSchema.safeParse(session.get(DRAFT_KEY) ?? {});
  const draft = parsed.success ? parsed.data : emptyStartDraft();
  const flashed = z.record(z.string(), z.string()).safeParse(session.get(ERRORS_KEY));
  const errors = flashed.success ? flashed.data : null;
  return { draft, errors, setCookie: errors ? await storage().commitSession(session) : null };
}

/** Stores the draft and returns its Set-Cookie header. */
export async function saveStartDraft(request: Request, draft: StartDraft, errors?: Record<string, string>) {
  const session = await getDraftSession(request);
  session.set(DRAFT_KEY, draft);
  if (errors) session.flash(ERRORS_KEY, errors);
  return storage().commitSession(session);
}

/** The Set-Cookie header that forgets the draft (after the Chorus is created). */
export async function clearStartDraft(request: Request) {
  return storage().destroySession(await getDraftSession(request));
}
