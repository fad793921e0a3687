import { Scripts } from "@remix-run/react";
import { useNonce } from "./nonce";
import { START_AFTER_FIRST_PAINT_SCRIPT } from "./start-after-first-paint.server";

/**
 * Remix's <Scripts>, started after the first paint (docs/decisions/039-scripts-after-first-paint.md).
 * They are rendered in a <template> inside a <noscript>: with JavaScript on, the browser reads a
 * <noscript> as text, so no module preload or script is fetched while the page is read and laid
 * out; the inline script after it puts them into the page once the page has been painted. React
 * leaves a <noscript>'s contents alone, at hydration and after, so the elements put there are no
 * mismatch. With JavaScript off the <noscript> is read as HTML and the <template> keeps what is in
 * it inert: nothing is fetched for scripts that cannot run.
 */
export function ScriptsAfterFirstPaint() {
  const nonce = useNonce();
  return (
    <>
      <noscript>
        <template>
          <Scripts nonce={nonce} />
        </template>
      </noscript>
      {/* The browser's copy has no text for the script (the module is server-only): hydration keeps the page's. */}
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: START_AFTER_FIRST_PAINT_SCRIPT ?? "" }} />
    </>
  );
}
