import { Link } from "@remix-run/react";
import { isAdmin, showsVipCard } from "~/domain/membership";
import { DASHBOARD_TITLE, START_PATH, VIP_CARD_TEXT, VIP_CARD_TITLE } from "~/domain/product";
import { LogoutButton } from "./logout-button";
import type { ShellProps } from "./shell-types";

/** The account menu's entries (spec §2.2), shared by the desktop menu and the mobile overlay. */
export function MenuLinks({ user, links, withSiteLinks = false }: ShellProps & { withSiteLinks?: boolean }) {
  return (
    <>
      {user ? <p className="menu-identity">Logged in as {user.email}</p> : null}
      <ul className="menu-list">
        {withSiteLinks ? (
          <>
            <li>
              <Link to={START_PATH}>Start a Chorus</Link>
            </li>
            <li>
              <a href={links.pricing}>Pricing</a>
            </li>
            <li>
              <a href={links.help}>Help</a>
            </li>
          </>
        ) : null}
        {user ? (
          <>
            <li>
              <Link to="/dashboard">{DASHBOARD_TITLE}</Link>
            </li>
            <li>
              <Link to="/settings/profile">Account</Link>
            </li>
            {isAdmin(user) ? (
              <li>
                <a href={links.admin}>Admin</a>
              </li>
            ) : null}
            <li>
              <LogoutButton />
            </li>
          </>
        ) : (
          <>
            <li>
              <Link to="/auth/login">Log In</Link>
            </li>
            <li>
              <Link to="/auth/register">Create Account</Link>
            </li>
          </>
        )}
      </ul>
      {showsVipCard(user) ? (
        <div className="vip-card">
          <strong>{VIP_CARD_TITLE}</strong>
          <p>{VIP_CARD_TEXT}</p>
          <Link to="/settings/billing">See Member Perks</Link>
        </div>
      ) : null}
    </>
  );
}
