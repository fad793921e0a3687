import { Link } from "@remix-run/react";
import { MusicIcon } from "~/components/ui/icons";
import { PRODUCT_NAME, START_PATH } from "~/domain/product";
import type { NotificationPayload } from "~/realtime/events";
import { AccountMenu } from "./account-menu";
import { MobileMenu } from "./mobile-menu";
import { NotificationsMenu } from "./notifications-menu";
import type { ShellProps } from "./shell-types";

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
          {props.user && notifications ? <NotificationsMenu initial={notifications} /> : null}
          <AccountMenu {...props} />
        </nav>
        {props.user && notifications ? (
          <div className="mobile-only">
            <NotificationsMenu initial={notifications} />
          </div>
        ) : null}
        <MobileMenu {...props} />
      </div>
    </header>
  );
}
