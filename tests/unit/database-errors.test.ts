import { describe, expect, test } from "vitest";
import { databaseErrorCode, isDatabaseUnavailable } from "~/lib/database-errors.server";

// How a failed query is told apart: the database away for a moment (answered 503, the process
// carries on) or a query that failed on its own (a 500, or a rule such as a unique index).

/** As drizzle wraps what postgres.js threw. */
const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });
const server = (code: string, message = "") => Object.assign(new Error(message), { code, severity: "FATAL" });

describe("isDatabaseUnavailable", () => {
  test.each([
    ["an administrator's terminate (a failover)", server("57P01", "terminating connection due to administrator command")],
    ["a server starting up", server("57P03", "the database system is starting up")],
    ["a connection exception", server("08006", "connection failure")],
    ["too many connections", server("53300", "sorry, too many clients already")],
    ["a database refusing connections", server("55000", 'database "chorus" is not currently accepting connections')],
    ["postgres.js losing its connection", Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" })],
    ["a refused socket", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["pg losing its connection", new Error("Connection terminated unexpectedly")],
  ])("%s", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(error))).toBe(true);
  });

  test.each([
    ["a unique violation", server("23505", "duplicate key value")],
    ["a syntax error", server("42601", "syntax error")],
    ["another object-state error", server("55000", "cannot change sequence")],
    ["an error of our own", new Error("Connection details are missing")],
    ["nothing at all", undefined],
  ])("not %s", (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isDatabaseUnavailable(wrapped(error))).toBe(false);
  });
});

test("databaseErrorCode finds the SQLSTATE under drizzle's wrapper, and nothing else", () => {
  expect(databaseErrorCode(wrapped(server("23505")))).toBe("23505");
  expect(databaseErrorCode(server("23505"))).toBe("23505");
  expect(databaseErrorCode(wrapped(Object.assign(new Error("x"), { code: "ECONNRESET" })))).toBeNull();
  expect(databaseErrorCode(new Error("plain"))).toBeNull();
});
