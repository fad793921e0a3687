import { encode } from "@msgpack/msgpack";
import { createAdapter } from "@socket.io/postgres-adapter";
import pg from "pg";
import { MessageType, type ClusterMessage } from "socket.io-adapter";
import { env } from "~/lib/env.server";
import type { RealtimeNamespace, ServerToClientEvents } from "./events";

// Realtime messages cross processes by PostgreSQL NOTIFY: web processes (socket.io with the
// PostgreSQL adapter) hand each broadcast to the others, and a worker process, which has no
// socket.io server, broadcasts through an emitter on the same channel. A render worked by
// `npm run worker` so reaches the organiser's open page like one worked in the web process.

/** PostgreSQL refuses notifications of 8000 bytes and more. */
const NOTIFY_LIMIT = 7999;
/** The sender id adapters know as an emitter's. */
const EMITTER_UID = "emitter";
/** socket.io's packet type of an event (protocol 5). */
const SOCKET_IO_EVENT = 2;

/** Where messages too large for a notification are kept (drizzle/schema/realtime.ts). */
const ATTACHMENTS_TABLE = "realtime_attachments";

type Emit = <E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>) => void;

/** What services need to push an update: a namespace, maybe a room, an event. */
export interface Broadcaster {
  of(namespace: RealtimeNamespace): { emit: Emit; to(room: string): { emit: Emit } };
}

function channelOptions() {
  return {
    channelPrefix: env().REALTIME_CHANNEL,
    tableName: ATTACHMENTS_TABLE,
    payloadThreshold: NOTIFY_LIMIT,
  };
}

function logFailure(error: unknown) {
  console.error("realtime fan-out:", error instanceof Error ? error.message : error);
}

/**
 * A small pool of its own for sending: notifications, large messages, the adapter's cleanup. Once it
 * is ended, a send still under way fails ("Cannot use a pool after calling end on the pool"): the
 * adapter's timers may fire once more as the process stops, and a job handed back may still report
 * progress. Nobody listens for them from this process any more, so such failures are not logged.
 */
function sendingPool(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  // An idle connection the server dropped (a failover, a proxy's idle timeout): the pool opens
  // another when it is next needed.
  pool.on("error", logFailure);
  let ended = false;
  return {
    pool,
    ended: () => ended,
    /** Logs a failed send, unless the pool had been ended by then. */
    logFailure: (error: unknown) => {
      if (!ended) logFailure(error);
    },
    /** Ends the pool; a connection still being opened as the process stops does not hold it up. */
    async end() {
      ended = true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([pool.end(), new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
    },
  };
}

/** Waits before the next try at opening the LISTEN connection: 0.5 s, doubling up to 30 s. */
const LISTEN_RETRY_MS = { first: 500, max: 30_000 };

/**
 * What the adapter takes for its pool. It sends through the pool, and takes one connection out of it
 * to LISTEN on for as long as that connection lives, then asks for another. Out of a pg pool, that
 * connection has no "error" listener of the pool's while it is out, so losing its server (a failover,
 * `pg_terminate_backend`, a proxy's idle timeout) threw an unhandled "error" event that stopped the
 * process; and as it was never given back, every loss also kept one of the pool's places. So the
 * LISTEN connection is a client of its own here: its errors are logged, the adapter hears it end and
 * asks for another, which is opened after a pause that grows while the server stays away.
 */
function listenSource(databaseUrl: string, pool: pg.Pool) {
  let failures = 0;
  let closed = false;
  const pause = () => Math.min(LISTEN_RETRY_MS.max, LISTEN_RETRY_MS.first * 2 ** Math.max(0, failures - 1));
  return {
    query: pool.query.bind(pool),
    async connect() {
      // The adapter asks again after a failure: once the process is stopping, it never hears back,
      // and an unanswered promise holds nothing open.
      if (closed) return new Promise<never>(() => {});
      if (failures) await new Promise((resolve) => setTimeout(resolve, pause()));
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on("error", (error) => {
        logFailure(error);
        void client.end().catch(() => {});
      });
      try {
        await client.connect();
      } catch (error) {
        failures++;
        void client.end().catch(() => {});
        throw error;
      }
      if (failures) console.info(`realtime fan-out: listening again after ${failures} failed attempt(s)`);
      failures = 0;
      // What the adapter calls to give the connection back: there is no pool to give it to.
      return Object.assign(client, { release: () => void client.end().catch(() => {}) });
    },
    close() {
      closed = true;
    },
  };
}

/** The socket.io adapter of a web process, and how to let go of its connections. */
export function postgresAdapter(databaseUrl: string) {
  const sending = sendingPool(databaseUrl);
  const listener = listenSource(databaseUrl, sending.pool);
  const adapter = createAdapter(listener as unknown as pg.Pool, { ...channelOptions(), errorHandler: sending.logFailure });
  return {
    adapter,
    close: () => {
      listener.close();
      return sending.end();
    },
  };
}

/**
 * A broadcaster for a process without a socket.io server (a worker). It sends what a web
 * process's adapter sends for `io.of(ns).to(room).emit(...)`, marked as coming from an emitter
 * (not a server: the adapters do not wait for its heartbeat).
 */
export function postgresEmitter(databaseUrl: string): Broadcaster & { close(): Promise<void> } {
  const sending = sendingPool(databaseUrl);
  const { pool } = sending;
  const { channelPrefix, tableName } = channelOptions();

  async function publish(message: ClusterMessage) {
    const channel = `${channelPrefix}#${message.nsp}`;
    const payload = JSON.stringify(message);
    if (Buffer.byteLength(payload) <= NOTIFY_LIMIT) {
      await pool.query("select pg_notify($1, $2)", [channel, payload]);
      return;
    }
    // Too long for a notification: the adapter reads it from the table by id.
    const kept = await pool.query<{ id: string }>(`insert into ${tableName} (payload) values ($1) returning id`, [
      Buffer.from(encode(message)),
    ]);
    await pool.query("select pg_notify($1, $2)", [
      channel,
      JSON.stringify({ uid: message.uid, type: message.type, attachmentId: kept.rows[0]!.id }),
    ]);
  }

  const sender =
    (nsp: RealtimeNamespace, rooms: string[]): Emit =>
    (event, ...args) => {
      if (sending.ended()) return;
      const message: ClusterMessage = {
        uid: EMITTER_UID,
        nsp,
        type: MessageType.BROADCAST,
        data: { opts: { rooms, except: [], flags: {} }, packet: { type: SOCKET_IO_EVENT, data: [event, ...args], nsp } },
      };
      // A lost progress update is not worth failing the job that sent it.
      publish(message).catch(sending.logFailure);
    };

  return {
    of: (namespace) => ({ emit: sender(namespace, []), to: (room) => ({ emit: sender(namespace, [room]) }) }),
    close: () => sending.end(),
  };
}
