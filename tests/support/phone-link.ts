import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A phone's link to the server, for one browser context: every connection the browser opens to
 * `url` (pages, scripts, uploads, sockets) goes through it. Chromium's own throttling sets a rate and
 * a latency but cannot cut a connection; this does all three, at the TCP level:
 *
 * - `kbitPerSecond` each way, shared by every connection of the link, as a radio link is;
 * - `roundTripMs`: half of it added to every byte in each direction;
 * - `resetEveryBytes`: each time that many more bytes have crossed the link (both directions
 *   counted), every connection open at that moment is reset, as when a train leaves a cell. Bytes
 *   still on their way are lost with it.
 *
 * The link also holds back a sender that is ahead of it (a small window in flight), so the browser
 * sees its upload go at the link's pace rather than into a local buffer.
 */
export interface PhoneLinkOptions {
  kbitPerSecond: number;
  roundTripMs: number;
  resetEveryBytes?: number;
  firstResetAfterBytes?: number;
}

/** Bytes of one direction that may be on the link, not yet delivered, before the sender is paused. */
const WINDOW_BYTES = 32 * 1024;
/** Bytes delivered at a time: a large read is spread over its time on the link, not delivered at its end. */
const SLICE_BYTES = 4 * 1024;

interface Slice {
  bytes: Buffer;
  due: number;
  pair: Pair;
  to: net.Socket;
  from: net.Socket;
}

interface Pair {
  browser: net.Socket;
  server: net.Socket;
  /** Undelivered bytes from each side. */
  inFlight: Map<net.Socket, number>;
  closed: boolean;
}

/** One direction of the link: a queue of slices, each delivered when its time on the link is over. */
class Direction {
  private queue: Slice[] = [];
  private linkFreeAt = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly msPerByte: number,
    private readonly oneWayMs: number,
    private readonly delivered: (bytes: number) => void,
  ) {}

  carry(bytes: Buffer, pair: Pair, from: net.Socket, to: net.Socket) {
    for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
      const slice = bytes.subarray(start, start + SLICE_BYTES);
      const leaves = Math.max(performance.now(), this.linkFreeAt) + slice.length * this.msPerByte;
      this.linkFreeAt = leaves;
      this.queue.push({ bytes: slice, due: leaves + this.oneWayMs, pair, to, from });
    }
    this.schedule();
  }

  /** Forgets what is on the way for a pair that was reset or closed. */
  drop(pair: Pair) {
    this.queue = this.queue.filter((slice) => slice.pair !== pair);
  }

  private schedule() {
    if (this.timer || this.queue.length === 0) return;
    this.timer = setTimeout(() => this.deliver(), Math.max(0, this.queue[0]!.due - performance.now()));
  }

  private deliver() {
    this.timer = null;
    const now = performance.now();
    while (this.queue.length && this.queue[0]!.due <= now + 1) {
      const slice = this.queue.shift()!;
      if (slice.pair.closed) continue;
      slice.to.write(slice.bytes);
      const left = (slice.pair.inFlight.get(slice.from) ?? 0) - slice.bytes.length;
      slice.pair.inFlight.set(slice.from, left);
      if (left < WINDOW_BYTES && slice.from.isPaused()) slice.from.resume();
      this.delivered(slice.bytes.length);
    }
    this.schedule();
  }

  close() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }
}

export async function startPhoneLink(target: string, options: PhoneLinkOptions) {
  const upstream = new URL(target);
  const msPerByte = 8 / options.kbitPerSecond;
  const oneWayMs = options.roundTripMs / 2;
  const pairs = new Set<Pair>();
  let carried = 0;
  let carriedUp = 0;
  let resets = 0;
  let nextReset = options.firstResetAfterBytes ?? options.resetEveryBytes ?? Infinity;
  let offline = false;

  const onDelivered = (bytes: number) => {
    carried += bytes;
    if (carried >= nextReset) {
      nextReset = carried + (options.resetEveryBytes ?? Infinity);
      resetAll();
    }
  };
  const up = new Direction(msPerByte, oneWayMs, (bytes) => {
    carriedUp += bytes;
    onDelivered(bytes);
  });
  const down = new Direction(msPerByte, oneWayMs, onDelivered);

  function end(pair: Pair, reset: boolean) {
    if (pair.closed) return;
    pair.closed = true;
    pairs.delete(pair);
    up.drop(pair);
    down.drop(pair);
    if (reset) {
      pair.browser.resetAndDestroy();
      pair.server.destroy();
    } else {
      pair.browser.destroy();
      pair.server.destroy();
    }
  }

  function resetAll() {
    if (pairs.size) resets += 1;
    for (const pair of [...pairs]) end(pair, true);
  }

  const server = net.createServer((browser) => {
    if (offline) return void browser.resetAndDestroy();
    const upstreamSocket = net.connect({ host: upstream.hostname, port: Number(upstream.port) });
    const pair: Pair = { browser, server: upstreamSocket, inFlight: new Map(), closed: false };
    pairs.add(pair);
    const wire = (from: net.Socket, to: net.Socket, direction: Direction) => {
      from.on("data", (bytes: Buffer) => {
        if (pair.closed) return;
        const inFlight = (pair.inFlight.get(from) ?? 0) + bytes.length;
        pair.inFlight.set(from, inFlight);
        if (inFlight >= WINDOW_BYTES) from.pause();
        direction.carry(bytes, pair, from, to);
      });
      // A side that finished sending: the other is told once what it sent has crossed the link.
      from.on("end", () => {
        const wait = () => {
          if (pair.closed) return;
          if ((pair.inFlight.get(from) ?? 0) > 0) return void setTimeout(wait, 20);
          to.end();
        };
        wait();
      });
    };
    wire(browser, upstreamSocket, up);
    wire(upstreamSocket, browser, down);
    browser.on("error", () => end(pair, false));
    upstreamSocket.on("error", () => end(pair, true));
    browser.on("close", () => end(pair, false));
    upstreamSocket.on("close", () => {
      // What the server sent before closing still crosses the link first.
      const wait = () => {
        if (pair.closed) return;
        if ((pair.inFlight.get(upstreamSocket) ?? 0) > 0) return void setTimeout(wait, 20);
        end(pair, false);
      };
      wait();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://localhost:${port}`,
    /** Bytes that crossed the link, both ways. */
    carried: () => carried,
    /** Bytes that crossed it from the browser to the server. */
    carriedUp: () => carriedUp,
    /** How many times the link cut the connections it had open. */
    resets: () => resets,
    /** No signal: open connections are reset and new ones refused, until `online`. */
    offline() {
      offline = true;
      resetAll();
    },
    online() {
      offline = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        offline = true;
        resetAll();
        up.close();
        down.close();
        server.close(() => resolve());
      }),
  };
}

export type PhoneLink = Awaited<ReturnType<typeof startPhoneLink>>;
