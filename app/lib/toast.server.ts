import { createCookieSessionStorage } from "@remix-run/node";
import { z } from "zod";
import { secureCookies } from "./env.server";
import { sessionSecrets } from "./session-secret.server";
import { singleton } from "./singleton.server";

export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("info"),
  title: z.string(),
  description: z.string().optional(),
});
export type Toast = z.infer<typeof toastSchema>;

const KEY = "toast";

// Toasts travel in their own short-lived cookie, so they outlive a log-out that
// destroys the session they would otherwise sit in.
const storage = () =>
  singleton("toastStorage", () =>
    createCookieSessionStorage({
      cookie: {
        name: "__toast",
        httpOnly: true,
        sameSite: "lax",
        secure: secureCookies(),
        path: "/",
        secrets: sessionSecrets(),
      },
    }),
  );

/** A Set-Cookie header that shows `toast` on the next page. */
export async function toastHeader(toast: z.input<typeof toastSchema>) {
  const session = await storage().getSession();
  session.flash(KEY, toastSchema.parse(toast));
  return storage().commitSession(session);
}

/** Reads and clears the pending toast, if any. */
export async function takeToast(request: Request) {
  const session = await storage().getSession(request.headers.get("Cookie"));
  const parsed = toastSchema.safeParse(session.get(KEY));
  return {
    toast: parsed.success ? parsed.data : null,
    setCookie: parsed.success ? await storage().destroySession(session) : null,
  };
}
