// What server.ts hands every loader and action, beside the request.
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** Nonce of this response's Content-Security-Policy, for inline scripts. */
    cspNonce: string;
  }
}

export {};
