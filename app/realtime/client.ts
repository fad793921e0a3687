import type { Socket } from "socket.io-client";
import { retryingImport } from "~/lib/browser/retrying-import";
import { RECONNECTION, type ClientToServerEvents, type RealtimeNamespace, type ServerToClientEvents } from "./events";
import { openPlainSocket, type PlainSocket } from "./plain-socket";

// The socket.io client is loaded when a component first asks for a live connection, not with every
// page: a logged-out visitor who never sees anything live never downloads it. The public pages'
// connection (a Chorus's pot and trees, a contribution's processing) goes over a plain WebSocket
// instead (plain-socket.ts), and loads the socket.io client only where a WebSocket cannot open.

type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Listened = ServerToClientEvents & { connect: () => void };

export interface RealtimeConnection {
  on<E extends keyof Listened>(event: E, handler: Listened[E]): void;
  emit<E extends keyof ClientToServerEvents>(event: E, ...args: Parameters<ClientToServerEvents[E]>): void;
  close(): void;
}

/**
 * The browser's connection to one namespace, with the session cookie and the reconnection settings
 * of spec §9. With the socket.io client, listeners and messages given before it has loaded are kept
 * and applied in order. Callers close it when their component goes.
 */
export function connectRealtime(namespace: RealtimeNamespace): RealtimeConnection {
  let socket: RealtimeSocket | null = null;
  let plain: PlainSocket | null = null;
  let closed = false;
  const listeners: Array<[string, (...args: never[]) => void]> = [];
  const pending: Array<(socket: RealtimeSocket) => void> = [];
  const whenOpen = (step: (socket: RealtimeSocket) => void) => (socket ? step(socket) : pending.push(step));

  const openSocketIo = () => {
    plain = null;
    // Fetched again after a cut: without it, nothing live reaches the page.
    void retryingImport(() => import("socket.io-client")).then(({ io }) => {
      if (closed) return;
      const opened: RealtimeSocket = io(namespace, { withCredentials: true, transports: ["websocket", "polling"], ...RECONNECTION });
      socket = opened;
      // socket.io's typed `on` takes the same pairs as these, by a signature TypeScript cannot follow through a generic.
      for (const [event, handler] of listeners) opened.on(event as "connect", handler as () => void);
      for (const step of pending.splice(0)) step(opened);
    });
  };
  if (namespace === "/public" && typeof WebSocket !== "undefined") plain = openPlainSocket(namespace, openSocketIo);
  else openSocketIo();

  return {
    on: (event, handler) => {
      listeners.push([event, handler as (...args: never[]) => void]);
      plain?.on(event, handler as (...args: never[]) => void);
      socket?.on(event as "connect", handler as () => void);
    },
    emit: (event, ...args) => {
      if (plain) return plain.emit(event, ...args);
      whenOpen((s) => s.emit(event as "event:join", ...(args as [string])));
    },
    close: () => {
      closed = true;
      plain?.close();
      socket?.close();
    },
  };
}
