import { UNSAFE_useScrollRestoration as useScrollRestoration } from "react-router-dom";
import { RESTORE_SCROLL_FUNCTION } from "./restore-scroll.server";

/** Remix's `sessionStorage` entry for the scroll positions: positions saved before still restore. */
const STORAGE_KEY = "positions";

/**
 * Remix's <ScrollRestoration>, with an inline script that leaves `sessionStorage` alone on a first
 * visit (restore-scroll.server.ts). React Router's hook, as Remix's component uses it, saves each
 * page's position when it is left and scrolls on navigations inside the app.
 */
export function ScrollRestoration({ nonce }: { nonce?: string }) {
  useScrollRestoration({ storageKey: STORAGE_KEY });
  // The browser's copy has no text for the script (the module is server-only): hydration keeps the page's.
  const script = RESTORE_SCROLL_FUNCTION ? `(${RESTORE_SCROLL_FUNCTION})(${JSON.stringify(STORAGE_KEY)});` : "";
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />;
}
