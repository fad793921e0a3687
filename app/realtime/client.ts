import { io, type Socket } from "socket.io-client";
import { RECONNECTION, type ClientToServerEvents, type RealtimeNamespace, type ServerToClientEvents } from "./events";

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * The browser's connection to one namespace, with the session cookie and the
 * reconnection settings of spec §9. Callers close it when their component goes.
 */
export function connectRealtime(namespace: RealtimeNamespace): RealtimeSocket {
  return io(namespace, { withCredentials: true, transports: ["websocket", "polling"], ...RECONNECTION });
}
