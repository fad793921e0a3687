import pg from "pg";
import { isDatabaseUnavailable } from "~/lib/database-errors.server";

// Idle job slots are woken when a job is sent, in this process and in every other one on the same
// queue (docs/decisions/032): `enqueue` follows pg-boss's `send` with a NOTIFY on the queue's
// channel, naming the queue, and every worker process LISTENs on it here. Polling stays as the
// fallback for what sends no notification (retries after their delay, pg-boss's schedules, a
// notification lost while this connection was being opened again).

/** The channel of a queue schema: processes that share the schema share the notifications. */
export const jobChannel = (schema: string) => `${schema}_jobs`;

/** Waits before the next try at opening the LISTEN connection: 0.5 s, doubling up to 30 s. */
const RETRY_MS = { first: 500, max: 30_000 };

export interface JobWakeups {
  close(): Promise<void>;
}

/**
 * A connection of its own that LISTENs on `channel` and calls `onReady(queue)` for each
 * notification. It is a `pg.Client`, not one of a pool, with an `error` handler (decision 020): when
 * the server goes away it is opened again after a pause that grows while the server stays away, and
 * `onReconnect` is called once it listens again, since jobs sent meanwhile were not heard of.
 */
export function listenForJobs(databaseUrl: string, channel: string, onReady: (queue: string) => void, onReconnect: () => void): JobWakeups {
  let client: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (closed) return;
    const pause = Math.min(RETRY_MS.max, RETRY_MS.first * 2 ** Math.max(0, failures - 1));
    timer = setTimeout(() => void open(), failures ? pause : 0);
  };

  async function open() {
    if (closed) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    let ended = false;
    const lost = () => {
      if (ended) return;
      ended = true;
      if (client === next) client = null;
      void next.end().catch(() => {});
      failures++;
      schedule();
    };
    next.on("error", (error) => {
      const say = isDatabaseUnavailable(error) ? console.warn : console.error;
      say("job queue: the connection listening for new jobs was lost:", error.message);
      lost();
    });
    next.on("end", lost);
    next.on("notification", (message) => {
      if (message.payload) onReady(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN "${channel}"`);
    } catch (error) {
      if (failures === 0) console.warn("job queue: could not listen for new jobs:", error instanceof Error ? error.message : error);
      lost();
      return;
    }
    if (closed) {
      ended = true;
      await next.end().catch(() => {});
      return;
    }
    client = next;
    if (failures) {
      console.info(`job queue: listening for new jobs again after ${failures} failed attempt(s)`);
      onReconnect();
    }
    failures = 0;
  }

  void open();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
}
