import * as schema from "drizzle/schema";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { env } from "./env.server";
import { dropSingleton, singleton } from "./singleton.server";

export type Database = PostgresJsDatabase<typeof schema>;
/** A database handle or an open transaction: models accept either. */
export type Db = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

function databaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the app through server.ts, which provides one.");
  return url;
}

function connect() {
  const client = postgres(databaseUrl(), {
    max: env().DATABASE_POOL_SIZE,
    onnotice: () => {},
  });
  return { client, db: drizzle(client, { schema, casing: "snake_case" }) };
}

/** The process's one database handle. */
export function db(): Database {
  return singleton("db", connect).db;
}

export async function closeDb() {
  const store = (globalThis as unknown as { __chorus?: { db?: ReturnType<typeof connect> } }).__chorus;
  const handle = store?.db;
  if (!handle) return;
  dropSingleton("db");
  await handle.client.end({ timeout: 5 });
}

export { schema };
