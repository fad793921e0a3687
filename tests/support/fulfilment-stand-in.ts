import crypto from "node:crypto";
import http from "node:http";

// A stand-in for the two fulfilment services' REST APIs on loopback: the Acutrack-like disc service
// (`POST /acutrack/orders`, `GET /acutrack/orders/{id}`, a bearer key, keyed by `reference`) and the
// Heirloom-like book printer (`POST /heirloom/v1/books`, `GET /heirloom/v1/books/{id}`, an
// `x-api-key`, keyed by `external_id`). The adapters send real requests to it; it records each one and
// answers in each service's shapes, a repeated key included (the first order comes back), with the
// delivery day each estimates.

/** The delivery day each service estimates for every order it takes (the printer gives a moment, whose day counts). */
export const ACUTRACK_ESTIMATE = "2031-03-14";
export const HEIRLOOM_ESTIMATE = "2031-03-21";

export interface RecordedFulfilmentRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  headers: http.IncomingHttpHeaders;
}

export interface FulfilmentStandIn {
  /** The disc service's base URL, and the book printer's. */
  acutrackUrl: string;
  heirloomUrl: string;
  requests: RecordedFulfilmentRequest[];
  /** Orders and books it made, by id, in the service's own shape; a test may move one along. */
  orders: Map<string, Record<string, unknown>>;
  /** The next `times` requests answer `status` (500 unless told). */
  failNext(times?: number, status?: number): void;
  /** The next `times` requests answer nothing for `ms`. */
  stallNext(times: number, ms: number): void;
  close(): Promise<void>;
}

export async function startFulfilmentStandIn(keys = { acutrack: "acu_test_key", heirloom: "hl_test_key" }): Promise<FulfilmentStandIn> {
  const requests: RecordedFulfilmentRequest[] = [];
  const orders = new Map<string, Record<string, unknown>>();
  let failures = { times: 0, status: 500 };
  let stalls = { times: 0, ms: 0 };

  function answer(method: string, path: string, body: Record<string, unknown> | null, headers: http.IncomingHttpHeaders) {
    if (path.startsWith("/acutrack/")) {
      if (headers.authorization !== `Bearer ${keys.acutrack}`) return { status: 401, body: { error: { message: "Bad API key" } } };
      if (method === "POST" && path === "/acutrack/orders" && body) {
        const existing = [...orders.values()].find((o) => o.reference === body.reference);
        if (existing) return { status: 200, body: { order: existing } };
        if (!body.reference || !body.ship_to) return { status: 422, body: { error: { message: "reference and ship_to are required" } } };
        const order = {
          id: `AT-${crypto.randomBytes(4).toString("hex").toUpperCase()}`,
          reference: body.reference,
          status: "received",
          tracking: null,
          estimated_delivery_date: ACUTRACK_ESTIMATE,
        };
        orders.set(order.id, order);
        return { status: 201, body: { order } };
      }
      const found = /^\/acutrack\/orders\/([^/]+)$/.exec(path);
      if (method === "GET" && found) {
        const order = orders.get(found[1]!);
        return order ? { status: 200, body: { order } } : { status: 404, body: { error: { message: "No such order" } } };
      }
    }
    if (path.startsWith("/heirloom/")) {
      if (headers["x-api-key"] !== keys.heirloom) return { status: 401, body: { message: "Bad API key" } };
      if (method === "POST" && path === "/heirloom/v1/books" && body) {
        const existing = [...orders.values()].find((o) => o.external_id === body.external_id);
        if (existing) return { status: 200, body: existing };
        const book = {
          id: `bk_${crypto.randomBytes(5).toString("hex")}`,
          external_id: body.external_id,
          state: "queued",
          shipment: null,
          estimated_delivery: `${HEIRLOOM_ESTIMATE}T00:00:00Z`,
        };
        orders.set(book.id, book);
        return { status: 201, body: book };
      }
      const found = /^\/heirloom\/v1\/books\/([^/]+)$/.exec(path);
      if (method === "GET" && found) {
        const book = orders.get(found[1]!);
        return book ? { status: 200, body: book } : { status: 404, body: { message: "No such book" } };
      }
    }
    return { status: 404, body: { message: `No route ${method} ${path}` } };
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const path = new URL(req.url!, "http://stand-in").pathname;
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      requests.push({ method: req.method!, path, body, headers: req.headers });
      res.setHeader("content-type", "application/json");
      const reply = () => {
        if (failures.times > 0) {
          failures.times--;
          res.statusCode = failures.status;
          return res.end(JSON.stringify({ error: { message: "Something broke" } }));
        }
        const answered = answer(req.method!, path, body, req.headers);
        res.statusCode = answered.status;
        res.end(JSON.stringify(answered.body));
      };
      if (stalls.times > 0) {
        stalls.times--;
        setTimeout(reply, stalls.ms);
      } else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    acutrackUrl: `http://127.0.0.1:${port}/acutrack`,
    heirloomUrl: `http://127.0.0.1:${port}/heirloom`,
    requests,
    orders,
    failNext(times = 1, status = 500) {
      failures = { times, status };
    },
    stallNext(times, ms) {
      stalls = { times, ms };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
