import type { Server as HttpServer } from "node:http";
import type { User } from "drizzle/schema";
import { Server, type Namespace, type ServerOptions, type Socket } from "socket.io";
import { hasEditRights } from "~/domain/membership";
import { isUuid } from "~/domain/uuid";
import { db } from "~/lib/db.server";
import { dropSingleton, setSingleton, singleton } from "~/lib/singleton.server";
import { findUserById } from "~/models/user.server";
import { sessionUserIdFromCookie } from "~/services/accounts/session.server";
import {
  REALTIME_NAMESPACES,
  roomOfEvent,
  roomOfUser,
  type ClientToServerEvents,
  type RealtimeNamespace,
  type ServerToClientEvents,
} from "./events";
import type { Broadcaster } from "./fan-out.server";

type ChorusSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { user: User | null }>;

/**
 * Express middleware never runs for socket handshakes, so each namespace reads
 * the session cookie itself. `need` decides who may connect.
 */
function authenticate(need: (user: User | null) => boolean) {
  return async (socket: ChorusSocket, next: (error?: Error) => void) => {
    try {
      const userId = await sessionUserIdFromCookie(socket.handshake.headers.cookie);
      const user = userId ? await findUserById(db(), userId) : null;
      if (!need(user)) return next(new Error(user ? "forbidden" : "unauthorized"));
      socket.data.user = user;
      // In every namespace a person's sockets share a room, so they can be closed together
      // (disconnectPerson) as well as reached together.
      if (user) await socket.join(roomOfUser(user.id));
      next();
    } catch (error) {
      console.error("realtime handshake failed:", error);
      next(new Error("unavailable"));
    }
  };
}

function greet(namespace: RealtimeNamespace, socket: ChorusSocket) {
  socket.emit("session:ready", { namespace, userId: socket.data.user?.id ?? null });
}

/**
 * Whether a handshake may go on, judged by its Origin: a page of another site must not open a
 * socket with the visitor's cookie (cross-site WebSocket hijacking; CORS does not cover WebSockets).
 * Browsers send Origin on every WebSocket and cross-origin request; a same-origin polling request
 * may come without one, and a client that is no browser carries no visitor's cookie.
 */
export function handshakeOriginAllowed(origin: string | undefined, host: string | undefined, allowedOrigin: string) {
  if (!origin) return true;
  if (origin === new URL(allowedOrigin).origin) return true;
  try {
    return !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * One socket.io server on the app's HTTP server, with exactly the three namespaces of spec §9.
 * `adapter` carries broadcasts to and from the deployment's other processes (fan-out.server.ts).
 */
export function attachRealtime(httpServer: HttpServer, allowedOrigin: string, adapter?: ServerOptions["adapter"]) {
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    cors: { origin: allowedOrigin, credentials: true },
    allowRequest: (req, callback) => {
      const allowed = handshakeOriginAllowed(req.headers.origin, req.headers.host, allowedOrigin);
      callback(allowed ? null : "this page's origin may not connect", allowed);
    },
    serveClient: false,
    ...(adapter ? { adapter } : {}),
  });
  // The default namespace is not part of the contract: refuse it.
  io.of("/").use((_socket, next) => next(new Error("unknown namespace")));

  const publicNs = io.of("/public") as unknown as Namespace<ClientToServerEvents, ServerToClientEvents>;
  publicNs.use(authenticate(() => true) as never);
  publicNs.on("connection", (socket: ChorusSocket) => {
    greet("/public", socket);
    socket.on("event:join", (uuid) => isUuid(uuid) && socket.join(roomOfEvent(uuid)));
    socket.on("event:leave", (uuid) => typeof uuid === "string" && socket.leave(roomOfEvent(uuid)));
  });

  const usersNs = io.of("/users");
  usersNs.use(authenticate((user) => !!user) as never);
  usersNs.on("connection", (socket: ChorusSocket) => greet("/users", socket));

  const staffNs = io.of("/staff");
  staffNs.use(authenticate((user) => hasEditRights(user)) as never);
  staffNs.on("connection", (socket: ChorusSocket) => greet("/staff", socket));

  setSingleton("io", io);
  io.on("close", () => dropSingleton("io"));
  return io;
}

/** The running socket.io server of this process, if it has one. */
export function realtime(): Server<ClientToServerEvents, ServerToClientEvents> | null {
  const store = (globalThis as unknown as { __chorus?: { io?: Server<ClientToServerEvents, ServerToClientEvents> } }).__chorus;
  return store?.io ?? null;
}

/**
 * Closes every live connection a person has, in every namespace and every web process (the
 * adapter carries it to the others): after their account is disabled or their role lowered, an open
 * page must not go on hearing what it no longer may. A page that reconnects is judged again.
 * `only` limits it to some namespaces (a role change only concerns /staff).
 */
export async function disconnectPerson(userId: string, only: readonly RealtimeNamespace[] = REALTIME_NAMESPACES) {
  const io = realtime();
  if (!io) return;
  await Promise.all(only.map((namespace) => io.of(namespace).in(roomOfUser(userId)).disconnectSockets(true)));
}

/** Where a process without a socket.io server (a worker) sends its updates. */
export function setRealtimeEmitter(emitter: Broadcaster | null) {
  if (emitter) setSingleton("realtimeEmitter", emitter);
  else dropSingleton("realtimeEmitter");
}

/**
 * For services that push updates: this process's socket.io server, which also hands them to the
 * other web processes, or in a worker the emitter that does; null when nobody could listen.
 */
export function broadcaster(): Broadcaster | null {
  return realtime() ?? singleton<Broadcaster | null>("realtimeEmitter", () => null);
}
