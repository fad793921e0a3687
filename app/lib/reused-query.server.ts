import type { Db } from "./db.server";

/**
 * A query turned into SQL once per database handle (or transaction) instead of on every call.
 * Drizzle builds a query's SQL each time it runs, ~50 µs of the process's time for a plain select:
 * 8–14% of the public event page's CPU profile, for its 4–8 reads.
 * `make` writes the query with placeholders (`sql.placeholder("id")`) and ends with `.prepare(name)`;
 * run it with `.execute({ id })`. PostgreSQL's own prepared statement is postgres.js's, as before.
 */
export function reusedQuery<Q>(make: (db: Db) => Q): (db: Db) => Q {
  // Keyed by the handle: a transaction gets its own, forgotten with it.
  const made = new WeakMap<Db, Q>();
  return (db) => {
    let query = made.get(db);
    if (!query) {
      query = make(db);
      made.set(db, query);
    }
    return query;
  };
}
