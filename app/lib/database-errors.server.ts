// What a failed query says about the database, whichever client ran it: postgres.js (the app's
// models, whose errors drizzle wraps in a DrizzleQueryError with the original as its `cause`), pg
// (pg-boss, the realtime fan-out) or Node's sockets underneath them.

/** The error and the errors it wraps, outermost first (a short chain: drizzle wraps once). */
function* causes(error: unknown) {
  for (let depth = 0; depth < 5 && typeof error === "object" && error !== null; depth++) {
    yield error as { code?: unknown; message?: unknown; errno?: unknown };
    error = (error as { cause?: unknown }).cause;
  }
}

/** PostgreSQL's SQLSTATE of a failed query (`23505` for a unique violation), if it has one. */
export function databaseErrorCode(error: unknown): string | null {
  for (const cause of causes(error)) {
    if (typeof cause.code === "string" && /^[0-9A-Z]{5}$/.test(cause.code)) return cause.code;
  }
  return null;
}

/**
 * SQLSTATEs of a server that is going away, not there yet, or full: class 08 (connection exception),
 * the shutdowns of class 57P (an administrator's `pg_terminate_backend`, a failover, a crash, a
 * server still starting) and too many connections.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-4]|53300)$/;
/** A database that refuses connections for now (`ALTER DATABASE … ALLOW_CONNECTIONS false`). */
const NOT_ACCEPTING = "is not currently accepting connections";
/** What the clients and sockets say when a connection cannot be made or is lost. */
const CLIENT_CODES = new Set([
  // postgres.js
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // Node's sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** pg's own words, for failures it gives no code. */
const PG_CLIENT_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
];

/**
 * Whether an error means the database could not be reached (lost, restarting, refusing
 * connections) rather than that the query was wrong: the request may well work in a moment, so it
 * is answered 503 "try again", and the process carries on while its clients reconnect.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const cause of causes(error)) {
    const code = typeof cause.code === "string" ? cause.code : "";
    const message = typeof cause.message === "string" ? cause.message : "";
    if (UNAVAILABLE_STATES.test(code) || CLIENT_CODES.has(code)) return true;
    if (code === "55000" && message.includes(NOT_ACCEPTING)) return true;
    if (!code && PG_CLIENT_MESSAGES.some((words) => message.startsWith(words))) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again (Retry-After) while the database is away. */
export const RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE = "We can't reach our database just now. Please try again in a moment.";
