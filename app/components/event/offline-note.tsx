import { useEffect, useState, useSyncExternalStore } from "react";
import { warmUploadModules } from "~/components/media/contribution-form";
import { OfflineIcon } from "~/components/ui/icons";
import { retryingImport } from "~/lib/browser/retrying-import";

function onConnectionChange(changed: () => void) {
  window.addEventListener("online", changed);
  window.addEventListener("offline", changed);
  return () => {
    window.removeEventListener("online", changed);
    window.removeEventListener("offline", changed);
  };
}

/** Whether the browser says it has a connection; the server's page assumes it does. */
const useOnline = () =>
  useSyncExternalStore(
    onConnectionChange,
    () => navigator.onLine,
    () => true,
  );

/**
 * Once the page has loaded, the service worker is registered and keeps this page for use offline
 * (offline-page.ts, docs/decisions/027). Its code loads then, on its own, not with the page.
 */
export function useKeptForOffline() {
  useEffect(() => {
    // Its chunk is fetched again after a cut: the copy it keeps is what opens the page on a link that fails.
    const keep = () =>
      void retryingImport(() => import("~/lib/browser/offline-page")).then((offline) => offline.keepPageOffline(warmUploadModules));
    if (document.readyState === "complete") return keep();
    window.addEventListener("load", keep, { once: true });
    return () => window.removeEventListener("load", keep);
  }, []);
}

/**
 * What a contributor with no connection needs to hear: their files wait and go by themselves. On the
 * copy of the page kept on the phone (the service worker marks it `data-offline-copy`), it says so.
 */
export function OfflineNote() {
  const online = useOnline();
  const [offlineCopy, setOfflineCopy] = useState(false);
  useEffect(() => setOfflineCopy(document.documentElement.hasAttribute("data-offline-copy")), []);
  if (online && !offlineCopy) return null;
  return (
    <p className="offline-note" role="status">
      <OfflineIcon />
      <span>
        {online ? "You're back online: your files are sending." : "You're offline — your files will send when you're back online."}
        {offlineCopy ? " This is the copy of the page saved on your phone." : ""}
      </span>
    </p>
  );
}
