import { sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export interface RateLimitHit {
  count: number;
  resetAt: Date;
}

/** Counts one hit against `key` in a fixed window; the window restarts once it has passed. */
export async function hitRateLimit(db: Db, key: string, windowSeconds: number): Promise<RateLimitHit> {
  const rows = await db.execute<{ count: number; reset_at: string | Date }>(sql`
    insert into rate_limits (key, count, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then now() + make_interval(secs => ${windowSeconds}) else rate_limits.reset_at end
    returning count, reset_at`);
  const row = rows[0]!;
  return { count: Number(row.count), resetAt: new Date(row.reset_at) };
}

export async function peekRateLimit(db: Db, key: string): Promise<RateLimitHit | null> {
  const rows = await db.execute<{ count: number; reset_at: string | Date }>(
    sql`select count, reset_at from rate_limits where key = ${key} and reset_at > now()`,
  );
  const row = rows[0];
  return row ? { count: Number(row.count), resetAt: new Date(row.reset_at) } : null;
}

export async function clearRateLimit(db: Db, key: string) {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}
