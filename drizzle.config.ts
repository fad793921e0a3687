import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` uses this file; it reads the schema, never a live database.
export default defineConfig({
  dialect: "postgresql",
  schema: "./drizzle/schema/index.ts",
  out: "./drizzle/migrations",
  casing: "snake_case",
});
