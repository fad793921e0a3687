import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { consumeAnalyticsUrlFlags, scheduleEventAfterRedirect } from "~/lib/browser/analytics";
import { announceLogin, announceLogout, listenForAuthChanges } from "~/lib/browser/auth-broadcast";

/**
 * Side effects of the shell that need a browser: analytics flags in the URL are
 * sent once then removed (spec §2.2), and log-ins/log-outs reach the other tabs.
 */
export function ShellEffects({ userId }: { userId: string | null }) {
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const { events, cleanedUrl } = consumeAnalyticsUrlFlags(new URL(window.location.href));
    if (!cleanedUrl) return;
    for (const name of events) scheduleEventAfterRedirect(name);
    navigate(cleanedUrl, { replace: true, preventScrollReset: true });
  }, [location.search, navigate]);

  const previous = useRef(userId);
  useEffect(() => {
    if (previous.current === userId) return;
    if (userId) announceLogin(userId);
    else announceLogout();
    previous.current = userId;
  }, [userId]);

  useEffect(
    () =>
      listenForAuthChanges({
        // A BroadcastChannel also delivers to the other channel objects of this very tab, so a
        // tab hears its own announcements; by then `previous` already holds the new state.
        // A tab that is already logged out has nothing to reload (and would lose its toast).
        onLogout: () => {
          if (previous.current !== null) window.location.reload();
        },
        onLogin: (id) => {
          if (id !== previous.current) window.location.reload();
        },
      }),
    [],
  );
  return null;
}
