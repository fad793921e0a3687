// `npm run db:migrate`: apply pending migrations to DATABASE_URL, or to the embedded database.
import { migrateDatabase, provideDatabase } from "~/lib/database-bootstrap.server";

const database = await provideDatabase({ log: console.log });
try {
  await migrateDatabase(database.url);
  console.log("Migrations applied.");
} finally {
  await database.stop();
}
