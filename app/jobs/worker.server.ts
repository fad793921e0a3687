// `npm run worker`: a process that only works background jobs (mail, SMS, reminders, delivery,
// media, rendering), for deployments that run web and worker processes apart. Its live updates
// (a render's progress, a clip processed) reach open pages through the web processes.
// Stops cleanly on SIGINT/SIGTERM.
import { migrateDatabase, provideDatabase } from "~/lib/database-bootstrap.server";
import { closeDb } from "~/lib/db.server";
import { postgresEmitter } from "~/realtime/fan-out.server";
import { setRealtimeEmitter } from "~/realtime/server.server";
import { jobHandlers } from "./handlers.server";
import { startJobQueue, stopJobQueue } from "./queue.server";

const database = await provideDatabase({ log: console.log });
await migrateDatabase(database.url);
const emitter = postgresEmitter(database.url);
setRealtimeEmitter(emitter);
await startJobQueue(database.url, jobHandlers);
console.log("Chorus worker is running.");

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    await stopJobQueue();
    setRealtimeEmitter(null);
    await emitter.close();
    await closeDb();
    await database.stop();
    process.exit(0);
  });
}
