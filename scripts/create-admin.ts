// `npm run admin:create -- <email> <password>`: create an admin account, or promote an existing one.
import { migrateDatabase, provideDatabase } from "~/lib/database-bootstrap.server";
import { closeDb } from "~/lib/db.server";
import { ensureAdmin } from "~/services/staff/admin-bootstrap.server";

const [email, password] = process.argv.slice(2);
if (!email) {
  console.error("Usage: npm run admin:create -- <email> [password]  (password needed for a new account)");
  process.exit(2);
}
const database = await provideDatabase({ log: console.log });
try {
  await migrateDatabase(database.url);
  const { created } = await ensureAdmin(email, password);
  console.log(created ? `Created admin ${email}.` : `${email} is now an admin.`);
} finally {
  await closeDb();
  await database.stop();
}
