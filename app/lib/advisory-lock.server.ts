import pg from "pg";
import { isDatabaseUnavailable } from "./database-errors.server";
import { env } from "./env.server";

// PostgreSQL session advisory locks held across more than one query (a piece being rendered, an
// upload's chunk being read), each on a connection of its own: a pool's connection would go back
// to the pool still holding its lock, and a transaction kept open for minutes holds a place of the
// pool and what the transaction touched. Waiting for one blocks in PostgreSQL, not in a polling
// loop. The connection is a `pg.Client` with an `error` handler (docs/decisions/020): losing it
// ends the lock, which whoever held it hears of (`onLost`), and never the process.

/** A lock's name and the number its family hashes names with: the lock is `hashtextextended(name, family)`. */
export interface LockName {
  name: string;
  family: number;
}

export interface HeldLock {
  /** Lets the lock go, ending its connection; resolves once done (never rejects). */
  release(): Promise<void>;
}

const abortError = () => Object.assign(new Error("The wait for a lock was cancelled."), { name: "AbortError" });

/** A connection of its own, with an `error` handler from its start: `onLost` once it breaks or ends. */
async function connect(onLost: (error?: Error) => void) {
  const client = new pg.Client({ connectionString: env().DATABASE_URL, application_name: "chorus-lock" });
  let ended = false;
  const lost = (error?: Error) => {
    if (ended) return;
    ended = true;
    onLost(error);
  };
  client.on("error", lost);
  client.on("end", () => lost());
  try {
    await client.connect();
  } catch (error) {
    ended = true;
    void client.end().catch(() => {});
    throw error;
  }
  return { client, isEnded: () => ended, markEnded: () => (ended = true) };
}

/** The lock held on the connection, which goes with it. */
function heldOn(connection: Awaited<ReturnType<typeof connect>>): HeldLock {
  let releasing: Promise<void> | undefined;
  return {
    release: () =>
      (releasing ??= (async () => {
        connection.markEnded();
        // Ending the session lets its locks go: no unlock to send first.
        await connection.client.end().catch(() => {});
      })()),
  };
}

const say = (what: string, error?: Error) => {
  const words = error ? `${what}: ${error.message}` : what;
  if (!error || isDatabaseUnavailable(error)) console.warn(words);
  else console.error(words);
};

/**
 * Takes the lock if no other session holds it, else answers null at once. `onLost` is told when
 * the connection breaks while the lock is held (the database went away): from then on another
 * process may take it.
 */
export async function tryAdvisoryLock(lock: LockName, onLost?: () => void): Promise<HeldLock | null> {
  let held = false;
  const connection = await connect((error) => {
    if (!held) return;
    say(`the connection holding the lock on ${lock.name} was lost`, error);
    onLost?.();
  });
  try {
    const { rows } = await connection.client.query<{ locked: boolean }>("select pg_try_advisory_lock(hashtextextended($1, $2)) as locked", [
      lock.name,
      lock.family,
    ]);
    held = rows[0]?.locked === true && !connection.isEnded();
  } catch (error) {
    await heldOn(connection).release();
    throw error;
  }
  if (!held) {
    await heldOn(connection).release();
    return null;
  }
  return heldOn(connection);
}

/**
 * Waits until the lock is free and takes it: the connection blocks in PostgreSQL meanwhile, so the
 * wait costs no queries and ends the moment the holder lets go (or its process dies). When
 * `signal` aborts, rejects at once with an AbortError and takes the waiting query back from the
 * server. Rejects with the connection's error when it breaks while waiting (the database went
 * away): the caller decides whether to wait again.
 */
export async function waitForAdvisoryLock(lock: LockName, signal?: AbortSignal, onLost?: () => void): Promise<HeldLock> {
  if (signal?.aborted) throw abortError();
  let held = false;
  let broke: (error: Error) => void = () => {};
  const broken = new Promise<never>((_, reject) => (broke = reject));
  broken.catch(() => {});
  const connection = await connect((error) => {
    if (!held) return broke(error ?? new Error("Connection terminated while waiting for a lock"));
    say(`the connection holding the lock on ${lock.name} was lost`, error);
    onLost?.();
  });
  const lockOfIt = heldOn(connection);
  let aborted: () => void = () => {};
  const cancelled = new Promise<never>((_, reject) => (aborted = () => reject(abortError())));
  cancelled.catch(() => {});
  signal?.addEventListener("abort", aborted, { once: true });
  // Cancelled while the connection was being opened.
  if (signal?.aborted) aborted();
  try {
    const { rows } = await Promise.race([connection.client.query<{ pid: number }>("select pg_backend_pid() as pid"), broken, cancelled]);
    const pid = rows[0]!.pid;
    const waiting = connection.client.query("select pg_advisory_lock(hashtextextended($1, $2))", [lock.name, lock.family]);
    waiting.catch(() => {});
    try {
      await Promise.race([waiting, broken, cancelled]);
    } catch (error) {
      // The server keeps waiting for a lock whatever the client does, until asked to stop.
      if (signal?.aborted) void stopWaiting(pid);
      throw error;
    }
    held = !connection.isEnded();
    if (!held) throw new Error("Connection terminated while waiting for a lock");
    return lockOfIt;
  } catch (error) {
    await lockOfIt.release();
    throw error;
  } finally {
    signal?.removeEventListener("abort", aborted);
  }
}

/** Cancels a session's wait for a lock from another connection (best effort: the database may be away). */
async function stopWaiting(pid: number) {
  try {
    const connection = await connect(() => {});
    await connection.client.query("select pg_cancel_backend($1)", [pid]).catch(() => {});
    await connection.client.end().catch(() => {});
  } catch {
    // Unreachable: the waiting session goes with the database, or when it next reads its socket.
  }
}
