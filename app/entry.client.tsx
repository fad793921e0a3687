import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { APP_STARTED_GLOBAL } from "./lib/browser/app-started";
import { startErrorReporting } from "./lib/browser/error-reporting";

// The script that started this module stops fetching again the app's files that a cut link failed.
(window as unknown as Record<string, boolean>)[APP_STARTED_GLOBAL] = true;
startErrorReporting();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
