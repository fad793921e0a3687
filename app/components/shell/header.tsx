import { Link } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { MusicIcon } from "~/components/ui/icons";
import { PRODUCT_NAME, START_PATH } from "~/domain/product";
import { retryingImport } from "~/lib/browser/retrying-import";
import type { NotificationPayload } from "~/realtime/events";
import { AccountMenu } from "./account-menu";
import { MobileMenu } from "./mobile-menu";
import * as rendered from "./notifications-menu-ssr.server";
import type { ShellProps } from "./shell-types";

/**
 * Only for someone signed in: rendered in full by the server, hydrated once its chunk arrives (fetched
 * again after a cut: a failed import would put the error page where the page was).
 */
const NotificationsMenu =
  rendered.NotificationsMenu ??
  lazy(() => retryingImport(() => import("./notifications-menu")).then((m) => ({ default: m.NotificationsMenu })));

export function Header({ notifications, ...props }: ShellProps & { notifications?: NotificationPayload[] }) {
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to="/dashboard" className="logo" aria-label={`${PRODUCT_NAME} — go to your dashboard`}>
          <span className="logo__mark">
            <MusicIcon size="0.9em" strokeWidth={2.5} />
          </span>
          {PRODUCT_NAME}
        </Link>
        <nav className="desktop-nav" aria-label="Main">
          <Link to={START_PATH}>Start a {PRODUCT_NAME}</Link>
          <a href={props.links.pricing}>Pricing</a>
          <a href={props.links.help}>Help</a>
          {props.user && notifications ? (
            <Suspense fallback={null}>
              <NotificationsMenu initial={notifications} />
            </Suspense>
          ) : null}
          <AccountMenu {...props} />
        </nav>
        {props.user && notifications ? (
          <div className="mobile-only">
            <Suspense fallback={null}>
              <NotificationsMenu initial={notifications} />
            </Suspense>
          </div>
        ) : null}
        <MobileMenu {...props} />
      </div>
    </header>
  );
}
