// `npm run worker`: a process that only works background jobs (mail, SMS, reminders, delivery),
// for deployments that run web and worker processes apart. Stops cleanly on SIGINT/SIGTERM.
import { closeDb } from "~/lib/db.server";
import { migrateDatabase, provideDatabase } from "~/lib/database-bootstrap.server";
import { jobHandlers } from "./handlers.server";
import { startJobQueue, stopJobQueue } from "./queue.server";

const database = await provideDatabase({ log: console.log });
await migrateDatabase(database.url);
await startJobQueue(database.url, jobHandlers);
console.log("Chorus worker is running.");

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await stopJobQueue();
    await closeDb();
    await database.stop();
    process.exit(0);
  });
}
