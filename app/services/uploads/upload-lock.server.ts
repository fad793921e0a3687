import crypto from "node:crypto";
import { ERRORS, MemoryLocker, type Lock, type Locker, type RequestRelease } from "@tus/server";
import pg from "pg";
import { waitForAdvisoryLock, type HeldLock } from "~/lib/advisory-lock.server";
import { isDatabaseUnavailable } from "~/lib/database-errors.server";
import { env } from "~/lib/env.server";

// The upload lock, across every web process on the database (docs/decisions/051). tus's own lock
// lives in one process's memory, so two web processes could both read the same upload's bytes and
// both complete it: a phone whose retry lands on another process while the first request is still
// being read, or a load balancer without sticky sessions. This one is a PostgreSQL session advisory
// lock per upload, taken after tus's lock within the process (which keeps the process's own
// requests in line, as before). tus lets a newer request ask the one holding an upload to let go
// (the older one then has `lockDrainTimeout` to finish): across processes that request is a
// NOTIFY, heard by every web process, which hands it to its request holding that upload.

/** The family of upload locks: an upload's lock is `hashtextextended(id, 9)` (render pieces use 7). */
const UPLOAD_LOCKS = 9;
/** Where a request asks whichever process holds an upload to let go. Notifications stay within their database. */
const RELEASE_CHANNEL = "chorus_upload_release";
/** As long as tus waits for its own lock (MemoryLocker's default). */
const LOCK_TIMEOUT_MS = 30_000;
const UPLOAD_ID = /^[\w-]+$/;

/** How a lock this process holds (or is waiting for) across processes is held, and how to ask its request to let go. */
interface Holding {
  requestRelease: RequestRelease;
  /** On the shared connection of this generation; or on a connection of its own, after a wait. */
  generation: number | null;
  own: HeldLock | null;
}

/** Asks the request holding a lock to let go (tus gives it `lockDrainTimeout`, then stops reading it). */
const askToLetGo = (holding: Holding) => void Promise.resolve(holding.requestRelease()).catch(() => {});

/**
 * tus's `Locker`: its in-memory lock for the requests of this process, then the upload's advisory
 * lock for the other processes. Uncontended (nearly always), the advisory lock costs a query to
 * take and one to give back on a connection this process keeps for them. Contended, the request
 * asks the holder to let go and waits blocked on a connection of its own (advisory-lock.server.ts).
 */
export class UploadLocker implements Locker {
  private readonly inProcess = new MemoryLocker({ acquireLockTimeout: LOCK_TIMEOUT_MS });
  private readonly holdings = new Map<string, Holding>();
  /** Tells this process's release requests from the others'. */
  private readonly token = crypto.randomBytes(8).toString("hex");
  private readonly shared = new SharedLockConnection(
    (payload) => this.heard(payload),
    (generation) => this.lost(generation),
  );

  newLock(id: string): Lock {
    let inProcess: Lock | null = null;
    return {
      lock: async (signal, requestRelease) => {
        const lock = this.inProcess.newLock(id);
        await lock.lock(signal, requestRelease);
        try {
          await this.acrossProcesses(id, signal, requestRelease);
        } catch (error) {
          await lock.unlock();
          throw error;
        }
        inProcess = lock;
      },
      unlock: async () => {
        const holding = this.holdings.get(id);
        this.holdings.delete(id);
        try {
          if (holding?.own) await holding.own.release();
          else if (holding?.generation !== undefined && holding.generation !== null) await this.shared.unlock(id, holding.generation);
        } finally {
          await inProcess?.unlock();
          inProcess = null;
        }
      },
    };
  }

  /** Ends the connection this process keeps for upload locks (the server is stopping). */
  close() {
    return this.shared.close();
  }

  private async acrossProcesses(id: string, signal: AbortSignal, requestRelease: RequestRelease) {
    // Known before the lock is asked for: a request to let go heard meanwhile reaches this request too.
    const holding: Holding = { requestRelease, generation: null, own: null };
    this.holdings.set(id, holding);
    try {
      const generation = await this.shared.tryLock(id);
      if (generation !== null) {
        holding.generation = generation;
        return;
      }
      // Another process holds it: ask it to let go, and wait for it to.
      await this.shared.notify(`${this.token} ${id}`);
      const timeout = AbortSignal.timeout(LOCK_TIMEOUT_MS);
      holding.own = await waitForAdvisoryLock({ name: id, family: UPLOAD_LOCKS }, AbortSignal.any([signal, timeout]), () =>
        askToLetGo(holding),
      ).catch((error: unknown) => {
        // The client left, a newer request took over, or the holder never let go: tus's own answer.
        if ((error as Error).name === "AbortError") throw ERRORS.ERR_LOCK_TIMEOUT;
        throw error;
      });
    } catch (error) {
      if (this.holdings.get(id) === holding) this.holdings.delete(id);
      throw error;
    }
  }

  /** Another process's request wants an upload: the request of this one that holds it is asked to let go. */
  private heard(payload: string) {
    const [from, id] = payload.split(" ");
    if (from === this.token || !id || !UPLOAD_ID.test(id)) return;
    const holding = this.holdings.get(id);
    if (holding) askToLetGo(holding);
  }

  /** The shared connection was lost, and every lock it held with it: their requests let go. */
  private lost(generation: number) {
    for (const holding of this.holdings.values()) {
      if (holding.generation === generation) askToLetGo(holding);
    }
  }
}

/**
 * The connection a web process keeps for the upload locks it takes without waiting, listening for
 * requests to let go. A `pg.Client` with an `error` handler (docs/decisions/020): when it is lost,
 * so are its locks (`onLost` with its generation), and the next lock opens another.
 */
class SharedLockConnection {
  private opening: Promise<{ client: pg.Client; generation: number }> | null = null;
  private generation = 0;
  private closed = false;

  constructor(
    private readonly onRelease: (payload: string) => void,
    private readonly onLost: (generation: number) => void,
  ) {}

  /** Takes the upload's lock if no other session holds it: the generation it is held in, else null. */
  async tryLock(id: string) {
    const { client, generation } = await this.open();
    const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock(hashtextextended($1, $2)) as locked", [
      id,
      UPLOAD_LOCKS,
    ]);
    return rows[0]?.locked === true && generation === this.generation ? generation : null;
  }

  /** Lets the upload's lock go, unless the connection it was held on is gone (and the lock with it). */
  async unlock(id: string, generation: number) {
    if (generation !== this.generation || !this.opening) return;
    const { client } = await this.opening;
    await client.query("select pg_advisory_unlock(hashtextextended($1, $2))", [id, UPLOAD_LOCKS]).catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) console.error("uploads: an upload lock could not be let go:", error);
    });
  }

  async notify(payload: string) {
    const { client } = await this.open();
    await client.query("select pg_notify($1, $2)", [RELEASE_CHANNEL, payload]);
  }

  async close() {
    this.closed = true;
    const opening = this.opening;
    this.opening = null;
    const open = await opening?.catch(() => null);
    await open?.client.end().catch(() => {});
  }

  private open() {
    if (this.closed) return Promise.reject(new Error("The upload locks are closed: the server is stopping."));
    this.opening ??= this.connect();
    return this.opening;
  }

  private async connect() {
    const generation = ++this.generation;
    const client = new pg.Client({ connectionString: env().DATABASE_URL, application_name: "chorus-upload-locks" });
    let ended = false;
    const lost = (error?: Error) => {
      if (ended) return;
      ended = true;
      if (this.generation === generation) {
        this.generation++;
        this.opening = null;
      }
      void client.end().catch(() => {});
      if (error && !this.closed) console.warn("uploads: the connection holding upload locks was lost:", error.message);
      this.onLost(generation);
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.payload) this.onRelease(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${RELEASE_CHANNEL}`);
    } catch (error) {
      lost();
      throw error;
    }
    return { client, generation };
  }
}
