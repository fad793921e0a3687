// What server.ts hands every loader and action, beside the request.
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** Nonce of this response's Content-Security-Policy, for inline scripts. */
    cspNonce: string;
    /**
     * Set by the server entry's error handler when a loader or action of this request could not
     * reach the database: the page is then answered 503, "try again", instead of its error boundary.
     */
    databaseUnavailable: { seen: boolean };
  }
}

export {};
