import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Links, Meta, Outlet, useLoaderData, useMatches, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AppStyles } from "./components/app-styles";
import { useNonce } from "./components/nonce";
import { ScriptsAfterFirstPaint } from "./components/scripts-after-first-paint";
import { ScrollRestoration } from "./components/scroll-restoration";
import { AnnouncementBanner } from "./components/shell/announcement-banner";
import { Footer, type FooterReport } from "./components/shell/footer";
import { Header } from "./components/shell/header";
import { OtherAddressBar } from "./components/shell/other-address-bar";
import { generalWordsFor } from "./components/shell/page-error";
import { ShellEffects } from "./components/shell/shell-effects";
import { ShellUiProvider } from "./components/shell/shell-ui";
import { DeveloperToolsBar, StaffToolsBar } from "./components/shell/staff-bars";
import { SupportWidget } from "./components/shell/support-widget";
import { StaticToast, ToastProvider } from "./components/shell/toasts";
import { PRODUCT_DESCRIPTION, PRODUCT_NAME } from "./domain/product";
import { useReportBoundaryError } from "./lib/browser/error-reporting";
import { loadShell } from "./root-shell.server";

// The stylesheet is not linked but written into the head (AppStyles): nothing holds back the first paint.
export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = () => [{ title: PRODUCT_NAME }, { name: "description", content: PRODUCT_DESCRIPTION }];

export const loader = loadShell;

/** A route's loader can ask for the report link in the footer by returning `footerReport`. */
function useFooterReport(): FooterReport | null {
  for (const match of [...useMatches()].reverse()) {
    const data = match.data as { footerReport?: FooterReport | null } | undefined;
    if (data && "footerReport" in data) return data.footerReport ?? null;
  }
  return null;
}

function Document({ children, env: clientEnv }: { children: ReactNode; env?: Record<string, unknown> }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <meta name="theme-color" content="#1f5fd6" />
        <Meta />
        <AppStyles />
        <Links />
      </head>
      <body>
        {children}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `window.ENV = ${JSON.stringify(clientEnv ?? {})}` }} />
        <ScrollRestoration nonce={nonce} />
        <ScriptsAfterFirstPaint />
      </body>
    </html>
  );
}

function App() {
  const data = useLoaderData<typeof loader>();
  const footerReport = useFooterReport();
  return (
    <Document env={data.ENV}>
      <ShellUiProvider>
        <ToastProvider serverToast={data.toast}>
          {data.developerBar ? <DeveloperToolsBar bar={data.developerBar} /> : null}
          {data.staffBar ? <StaffToolsBar bar={data.staffBar} /> : null}
          {data.canonicalAddress ? <OtherAddressBar canonicalAddress={data.canonicalAddress} /> : null}
          <Header user={data.user} links={data.links} notifications={data.notifications} />
          <StaticToast toast={data.toast} />
          <main id="main">
            <Outlet />
          </main>
          <Footer links={data.links} year={data.year} report={footerReport} />
          <AnnouncementBanner />
          <SupportWidget user={data.user} />
          <ShellEffects userId={data.user?.id ?? null} />
        </ToastProvider>
      </ShellUiProvider>
    </Document>
  );
}

export default App;

export function ErrorBoundary() {
  const error = useRouteError();
  useReportBoundaryError(error);
  const root = useRouteLoaderData<typeof loader>("root");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // Pages show their own errors inside the shell (components/shell/page-error.tsx); this is for an
  // address no route matches and a failure of the shell itself, in the same general words.
  const { title, text } = generalWordsFor(status);
  return (
    <Document env={root?.ENV}>
      <ShellUiProvider>
        <ToastProvider serverToast={null}>
          {root ? <Header user={root.user} links={root.links} /> : null}
          <main id="main">
            <div className="card empty-state">
              <h1>{title}</h1>
              <p>{text}</p>
              <a className="button" href="/">
                Go to the home page
              </a>
            </div>
          </main>
        </ToastProvider>
      </ShellUiProvider>
    </Document>
  );
}
