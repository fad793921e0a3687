// `npm run admin:create -- <email> <password>`: create an admin account, or promote an existing one.
import { ensureAdmin } from "~/services/staff/admin-bootstrap.server";
import { migrateDatabase, provideDatabase } from "../app/lib/database-bootstrap.server";
import { closeDb } from "../app/lib/db.server";

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
