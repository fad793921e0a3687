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

/** A small pool of its own: one connection stays LISTENing, the others send. */
function newPool(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  pool.on("error", logFailure); // a dropped idle connection: the adapter reconnects itself
  return pool;
}

/** Ends the pool; a connection still being opened as the process stops does not hold it up. */
async function endPool(pool: pg.Pool) {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([pool.end(), new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
  clearTimeout(timer);
}

/** The socket.io adapter of a web process, and how to let go of its connections. */
export function postgresAdapter(databaseUrl: string) {
  const pool = newPool(databaseUrl);
  const adapter = createAdapter(pool, { ...channelOptions(), errorHandler: logFailure });
  return { adapter, close: () => endPool(pool) };
}

/**
 * A broadcaster for a process without a socket.io server (a worker). It sends what a web
 * process's adapter sends for `io.of(ns).to(room).emit(...)`, marked as coming from an emitter
 * (not a server: the adapters do not wait for its heartbeat).
 */
export function postgresEmitter(databaseUrl: string): Broadcaster & { close(): Promise<void> } {
  const pool = newPool(databaseUrl);
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
      const message: ClusterMessage = {
        uid: EMITTER_UID,
        nsp,
        type: MessageType.BROADCAST,
        data: { opts: { rooms, except: [], flags: {} }, packet: { type: SOCKET_IO_EVENT, data: [event, ...args], nsp } },
      };
      // A lost progress update is not worth failing the job that sent it.
      publish(message).catch(logFailure);
    };

  return {
    of: (namespace) => ({ emit: sender(namespace, []), to: (room) => ({ emit: sender(namespace, [room]) }) }),
    close: () => endPool(pool),
  };
}
