import { RECONNECTION, type RealtimeNamespace } from "./events";

// socket.io's wire protocol (Engine.IO 4, Socket.IO 5) over the browser's own WebSocket, for the
// public pages' live updates: what the socket.io client does for them (connect to a namespace, hear
// its events, send one, answer the server's pings, reconnect with backoff) in a few hundred bytes,
// where its client weighs 14 KB compressed, more than anything else a newcomer's page loads after
// React. It carries JSON events only: no acknowledgements, no binary, and an event sent while not
// connected is dropped (callers send theirs on "connect"). The server is unchanged.

/** Engine.IO packet types, the first character of a frame. */
const OPEN = "0";
const CLOSE = "1";
const PING = "2";
const PONG = "3";
const MESSAGE = "4";
/** Socket.IO packet types, the character after MESSAGE. */
const CONNECT = "0";
const DISCONNECT = "1";
const EVENT = "2";
const CONNECT_ERROR = "4";

type Handler = (...args: never[]) => void;

export interface PlainSocket {
  on(event: string, handler: Handler): void;
  emit(event: string, ...args: unknown[]): void;
  close(): void;
}

/**
 * A connection to `namespace` of this page's own server. `onUnavailable` is called, and the
 * connection given up, when the very first WebSocket cannot open (a proxy that refuses them): the
 * caller then uses the socket.io client, which can fall back to long polling. Once connected, a
 * dropped connection is opened again after 1 s, doubling up to 5 s (RECONNECTION), and "connect"
 * is heard again each time, so callers join their rooms again.
 */
export function openPlainSocket(namespace: RealtimeNamespace, onUnavailable: () => void): PlainSocket {
  const handlers = new Map<string, Handler[]>();
  const prefix = `${MESSAGE}${EVENT}${namespace},`;
  let ws: WebSocket | null = null;
  let closed = false;
  let everOpened = false;
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let silence: ReturnType<typeof setTimeout> | undefined;

  const hear = (event: string, args: unknown[]) => {
    for (const handler of handlers.get(event) ?? []) (handler as (...args: unknown[]) => void)(...args);
  };

  function reconnect() {
    clearTimeout(silence);
    ws = null;
    if (closed) return;
    const delay = Math.min(RECONNECTION.reconnectionDelay * 2 ** failures, RECONNECTION.reconnectionDelayMax);
    failures += 1;
    retry = setTimeout(open, delay * (1 - RECONNECTION.randomizationFactor + Math.random() * 2 * RECONNECTION.randomizationFactor));
  }

  function open() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/socket.io/?EIO=4&transport=websocket`;
    const socket = new WebSocket(url);
    ws = socket;
    // The server pings every pingInterval; a connection silent for longer than that and pingTimeout is dead.
    let quietLimit = RECONNECTION.timeout;
    const expectPing = () => {
      clearTimeout(silence);
      silence = setTimeout(() => socket.close(), quietLimit);
    };
    expectPing();
    socket.onmessage = ({ data }) => {
      if (typeof data !== "string") return;
      const type = data[0];
      if (type === OPEN) {
        everOpened = true;
        const { pingInterval, pingTimeout } = JSON.parse(data.slice(1)) as { pingInterval: number; pingTimeout: number };
        quietLimit = pingInterval + pingTimeout;
        expectPing();
        socket.send(`${MESSAGE}${CONNECT}${namespace},`);
      } else if (type === PING) {
        expectPing();
        socket.send(PONG);
      } else if (type === CLOSE) {
        socket.close();
      } else if (type === MESSAGE && data.startsWith(`${MESSAGE}${CONNECT}${namespace},`)) {
        failures = 0;
        hear("connect", []);
      } else if (
        type === MESSAGE &&
        (data.startsWith(`${MESSAGE}${CONNECT_ERROR}${namespace},`) || data.startsWith(`${MESSAGE}${DISCONNECT}${namespace},`))
      ) {
        // Refused or let go by the namespace, which judges the session cookie: opened again later and judged again.
        socket.close();
      } else if (data.startsWith(prefix)) {
        const [event, ...args] = JSON.parse(data.slice(prefix.length)) as [string, ...unknown[]];
        hear(event, args);
      }
    };
    // A failed connection is followed by its close, where what comes next is decided.
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (ws !== socket) return;
      if (!everOpened && !closed) {
        closed = true;
        clearTimeout(silence);
        return onUnavailable();
      }
      reconnect();
    };
  }

  open();
  return {
    on: (event, handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
    emit: (event, ...args) => {
      if (ws?.readyState === WebSocket.OPEN) ws.send(`${prefix}${JSON.stringify([event, ...args])}`);
    },
    close: () => {
      closed = true;
      clearTimeout(retry);
      clearTimeout(silence);
      ws?.close();
    },
  };
}
