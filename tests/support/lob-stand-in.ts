import crypto from "node:crypto";
import http from "node:http";

// A stand-in for Lob's API on loopback, for the parts the print adapter calls: create a postcard and
// retrieve one. The official SDK sends real requests to it; it records each one and answers in Lob's
// shapes, a repeated Idempotency-Key included (the first postcard comes back, as Lob does).

export interface RecordedLobRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  authorization: string | null;
  idempotencyKey: string | null;
}

export interface LobStandIn {
  url: string;
  requests: RecordedLobRequest[];
  /** Postcards it made, by id; a test may change one (add tracking events). */
  postcards: Map<string, Record<string, unknown>>;
  /** The next `times` requests answer `status` (500 unless given). */
  failNext(times?: number, status?: number): void;
  close(): Promise<void>;
}

export async function startLobStandIn(): Promise<LobStandIn> {
  const requests: RecordedLobRequest[] = [];
  const postcards = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, string>();
  let failures = 0;
  let failStatus = 500;

  function answer(
    method: string,
    path: string,
    body: Record<string, unknown> | null,
    key: string | null,
  ): { status: number; body: unknown } {
    if (method === "POST" && path === "/v1/postcards") {
      const earlier = key ? byKey.get(key) : undefined;
      if (earlier) return { status: 200, body: postcards.get(earlier) };
      const id = `psc_${crypto.randomBytes(8).toString("hex")}`;
      const made = {
        id,
        object: "postcard",
        to: body?.to,
        from: body?.from,
        size: body?.size,
        description: body?.description,
        send_date: new Date(Date.now() + 4 * 3600_000).toISOString(),
        expected_delivery_date: "2030-01-09",
        date_created: new Date().toISOString(),
        tracking_events: [],
      };
      postcards.set(id, made);
      if (key) byKey.set(key, id);
      return { status: 200, body: made };
    }
    const one = /^\/v1\/postcards\/([^/]+)$/.exec(path);
    if (method === "GET" && one) {
      const found = postcards.get(one[1]!);
      if (found) return { status: 200, body: found };
      return { status: 404, body: { error: { message: "postcard not found", status_code: 404, code: "not_found" } } };
    }
    return { status: 404, body: { error: { message: "no such route", status_code: 404 } } };
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://stand-in");
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      const key = (request.headers["idempotency-key"] as string | undefined) ?? null;
      requests.push({
        method: request.method ?? "GET",
        path: url.pathname,
        body,
        authorization: request.headers.authorization ?? null,
        idempotencyKey: key,
      });
      const reply =
        failures > 0
          ? (failures--, { status: failStatus, body: { error: { message: "stand-in failure", status_code: failStatus } } })
          : answer(request.method ?? "GET", url.pathname, body, key);
      response.writeHead(reply.status, { "content-type": "application/json" });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    postcards,
    failNext(times = 1, status = 500) {
      failures = times;
      failStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
