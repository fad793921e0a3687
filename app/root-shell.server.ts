import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { canonicalAddressFor } from "~/lib/links.server";
import { takeToast } from "~/lib/toast.server";
import { listNotificationsOf } from "~/models/notification.server";
import { getAuthState, toAuthedUser } from "~/services/accounts/current-user.server";
import { toNotificationPayload } from "~/services/events/notifications.server";
import { developerBar } from "~/services/staff/developer-bar.server";
import { staffBarFor } from "~/services/staff/staff-bar.server";

// The loader of every page's shell (root.tsx). It lives here, not in the route module, so that the
// browser's copy of root.tsx imports one server module, whose empty stand-in then rides in root's
// own chunk: each server module the browser's route modules import from more than one place
// becomes a chunk of its own, a request for a few empty bytes on every page.

/** Who is signed in (and their latest notifications), the toast to show once, the footer's links. */
export async function loadShell({ request }: LoaderFunctionArgs) {
  const { user, impersonator } = await getAuthState(request);
  const { toast, setCookie } = await takeToast(request);
  const notifications = user ? (await listNotificationsOf(db(), user.id, 10)).map(toNotificationPayload) : [];
  const settings = env();
  // The admin tools bar is the staff member's: the admin's own while acting as someone else.
  const staff = impersonator ?? user;
  const [staffBar, devBar] = await Promise.all([
    staffBarFor(staff, new URL(request.url).pathname, impersonator && user ? user.email : null),
    developerBar(),
  ]);
  return json(
    {
      user: user ? toAuthedUser(user) : null,
      staffBar,
      developerBar: devBar,
      canonicalAddress: canonicalAddressFor(request.url),
      notifications,
      toast,
      year: new Date().getFullYear(),
      links: {
        pricing: settings.PRICING_URL,
        help: settings.HELP_URL,
        faq: settings.FAQ_URL,
        privacy: settings.PRIVACY_URL,
        terms: settings.TERMS_URL,
        admin: settings.ADMIN_URL,
      },
      ENV: { SENTRY_DSN: settings.SENTRY_DSN, NODE_ENV: settings.NODE_ENV },
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}
