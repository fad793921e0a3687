/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // remix-auth 4 and remix-auth-form 3 ship ESM only: bundling them keeps the server build loadable.
  serverDependenciesToBundle: ["remix-auth", "remix-auth-form", /^remix-auth\//, /^@mjackson\//],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
