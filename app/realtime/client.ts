import type { Socket } from "socket.io-client";
import { RECONNECTION, type ClientToServerEvents, type RealtimeNamespace, type ServerToClientEvents } from "./events";

// The socket.io client is loaded when a component first asks for a live connection, not with every
// page: a logged-out visitor who never sees anything live never downloads it.

type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Listened = ServerToClientEvents & { connect: () => void };

export interface RealtimeConnection {
  on<E extends keyof Listened>(event: E, handler: Listened[E]): void;
  emit<E extends keyof ClientToServerEvents>(event: E, ...args: Parameters<ClientToServerEvents[E]>): void;
  close(): void;
}

/**
 * The browser's connection to one namespace, with the session cookie and the reconnection settings
 * of spec §9, made once the client library has loaded. Listeners and messages given before then are
 * kept and applied in order. Callers close it when their component goes.
 */
export function connectRealtime(namespace: RealtimeNamespace): RealtimeConnection {
  let socket: RealtimeSocket | null = null;
  let closed = false;
  const pending: Array<(socket: RealtimeSocket) => void> = [];
  const whenOpen = (step: (socket: RealtimeSocket) => void) => (socket ? step(socket) : pending.push(step));
  void import("socket.io-client").then(({ io }) => {
    if (closed) return;
    socket = io(namespace, { withCredentials: true, transports: ["websocket", "polling"], ...RECONNECTION });
    for (const step of pending.splice(0)) step(socket);
  });
  return {
    // socket.io's typed `on` and `emit` take the same pairs as these, by a signature TypeScript cannot follow through a generic.
    on: (event, handler) => whenOpen((s) => s.on(event as "connect", handler as () => void)),
    emit: (event, ...args) => whenOpen((s) => s.emit(event as "event:join", ...(args as [string]))),
    close: () => {
      closed = true;
      socket?.close();
    },
  };
}
