import { sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

// What readiness asks of the database (docs/deploy.md): that it answers, and which migration it
// has applied last (drizzle's own table: `created_at` is the migration's `when` in the journal).

/** Answers once the database has run a trivial query. */
export async function pingDatabase(db: Db) {
  await db.execute(sql`select 1`);
}

/** The `when` of the newest migration applied, or null when none is. */
export async function newestAppliedMigration(db: Db): Promise<number | null> {
  const rows = await db.execute<{ newest: string | null }>(sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`);
  const newest = rows[0]?.newest;
  return newest ? Number(newest) : null;
}
