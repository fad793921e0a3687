import { createCookie } from "@remix-run/node";
import { secureCookies } from "~/lib/env.server";
import { sessionSecrets } from "~/lib/session-secret.server";
import { singleton } from "~/lib/singleton.server";
import { getUser } from "~/services/accounts/current-user.server";

// The payment pages this browser opened, for payers with no account of record: a gift card or
// tree contribution may be paid by anyone holding the Chorus's link, signed in or not, and its
// return page and state are theirs alone (services/payments/checkout-payer.server.ts). A signed
// cookie of the payment services' session ids, the newest first; lax, so it comes back with the
// payer's return from the payment service's own site.

const THIRTY_DAYS = 60 * 60 * 24 * 30;
/** The newest this many: a payer goes back to the page they have just left, not to last month's. */
const KEPT = 20;

const cookie = () =>
  singleton("checkoutCookie", () =>
    createCookie("__checkouts", {
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(),
      path: "/",
      maxAge: THIRTY_DAYS,
      secrets: sessionSecrets(),
    }),
  );

/** The checkout sessions opened in the browser that sent `request`: none when its cookie is missing or not ours. */
export async function checkoutsOpenedHere(request: Request): Promise<string[]> {
  const value: unknown = await cookie().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

/** The Set-Cookie value that adds `sessionId` to the checkout sessions this browser opened. */
export async function rememberCheckout(request: Request, sessionId: string): Promise<string> {
  const earlier = (await checkoutsOpenedHere(request)).filter((id) => id !== sessionId);
  return cookie().serialize([sessionId, ...earlier].slice(0, KEPT));
}

/** Who asks about a checkout session: the signed-in user, and the sessions their browser opened. */
export async function checkoutPayerOf(request: Request) {
  return { userId: (await getUser(request))?.id ?? null, openedHere: await checkoutsOpenedHere(request) };
}
