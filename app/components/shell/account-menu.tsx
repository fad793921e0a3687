import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { MenuLinks } from "./menu-links";
import type { ShellProps } from "./shell-types";
import { useDetailsMenu } from "./use-details-menu";

export function AccountMenu(props: ShellProps) {
  const ref = useDetailsMenu();
  const location = useLocation();
  // A followed link closes the menu.
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key, ref]);

  return (
    <details className="account-menu" ref={ref}>
      <summary aria-label="Account menu">{props.user ? "My account" : "Log In"} ▾</summary>
      <div className="account-menu__panel">
        <MenuLinks {...props} />
      </div>
    </details>
  );
}
