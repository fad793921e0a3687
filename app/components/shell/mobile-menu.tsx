import { Link, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, type MouseEvent } from "react";
import { CloseIcon, MenuIcon } from "~/components/ui/icons";
import { MenuLinks } from "./menu-links";
import type { ShellProps } from "./shell-types";
import { useShellUi } from "./shell-ui";
import { useDetailsMenu } from "./use-details-menu";

/** Spec §9: the overlay opens in 0.5 s and closes in 0.25 s (the CSS animations use the same values). */
export const MENU_CLOSE_MS = 250;

/**
 * Hamburger menu for narrow screens: a <details> whose panel is a full-screen
 * overlay. Without JavaScript it opens and closes instantly and CSS stops the page
 * scrolling; with it, closing animates, Escape closes, and the chat widget hides.
 */
export function MobileMenu(props: ShellProps) {
  const { setMobileMenuOpen } = useShellUi();
  const location = useLocation();
  const closeTimer = useRef<ReturnType<typeof setTimeout>>();

  const close = useCallback(() => {
    const details = ref.current;
    if (!details?.open || details.dataset.closing !== undefined) return;
    details.dataset.closing = "";
    closeTimer.current = setTimeout(() => {
      delete details.dataset.closing;
      details.open = false;
    }, MENU_CLOSE_MS);
    // `ref` is the stable ref useDetailsMenu returns for this very callback: it cannot be a dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const ref = useDetailsMenu(close);

  // Lock page scroll while open and tell the chat widget; undo both on close.
  const onToggle = () => {
    const open = !!ref.current?.open;
    setMobileMenuOpen(open);
    const root = document.documentElement;
    if (open) {
      root.dataset.scrollLocked = "";
      document.body.style.overflow = "hidden";
    } else {
      delete root.dataset.scrollLocked;
      document.body.style.overflow = "";
    }
  };

  useEffect(() => close(), [location.key, close]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const onSummaryClick = (event: MouseEvent) => {
    if (ref.current?.open) {
      event.preventDefault();
      close();
    }
  };
  const onCloseClick = (event: MouseEvent) => {
    event.preventDefault();
    close();
  };

  return (
    <details className="mobile-menu" ref={ref} onToggle={onToggle}>
      <summary aria-label="Open menu" onClick={onSummaryClick}>
        <MenuIcon size={24} />
      </summary>
      <div className="mobile-menu__overlay" role="dialog" aria-modal="true" aria-label="Menu">
        <div className="mobile-menu__top">
          <Link to="/dashboard" className="logo">
            Chorus
          </Link>
          {/* Without JavaScript, following this link reloads the page with the menu closed. */}
          <a href={location.pathname + location.search} className="mobile-menu__close" aria-label="Close menu" onClick={onCloseClick}>
            <CloseIcon size={24} />
          </a>
        </div>
        <MenuLinks {...props} withSiteLinks />
      </div>
    </details>
  );
}
