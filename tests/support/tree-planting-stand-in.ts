import crypto from "node:crypto";
import http from "node:http";

// A stand-in for a Digital Humani-style planting API on loopback: `POST /tree` plants, answering the
// first planting again for a repeated Idempotency-Key. It records each request; a test may make the
// next ones fail (500), refuse (400, as for a closed project), or plant and then never answer.

export interface RecordedPlantingRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  apiKey: string | null;
  idempotencyKey: string | null;
}

export interface TreePlantingStandIn {
  url: string;
  requests: RecordedPlantingRequest[];
  /** Plantings made, by idempotency key. */
  plantings: Map<string, Record<string, unknown>>;
  /** The next `times` requests answer `status`, or plant and never answer ("hang"). */
  failNext(times?: number, how?: 500 | 400 | "hang"): void;
  close(): Promise<void>;
}

export async function startTreePlantingStandIn(): Promise<TreePlantingStandIn> {
  const requests: RecordedPlantingRequest[] = [];
  const plantings = new Map<string, Record<string, unknown>>();
  const failures: (500 | 400 | "hang")[] = [];

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
      requests.push({ method: req.method!, path: req.url!, body, apiKey: (req.headers["x-api-key"] as string) ?? null, idempotencyKey });
      res.setHeader("content-type", "application/json");
      const failure = failures.shift();
      if (failure && failure !== "hang") {
        res.statusCode = failure;
        return res.end(JSON.stringify({ message: failure === 400 ? "Project is not active" : "Internal error" }));
      }
      if (req.method !== "POST" || req.url !== "/tree" || !body) {
        res.statusCode = 404;
        return res.end(JSON.stringify({ message: "Not found" }));
      }
      const key = idempotencyKey ?? crypto.randomUUID();
      const planting = plantings.get(key) ?? {
        uuid: crypto.randomUUID(),
        created: new Date().toISOString(),
        treeCount: body.treeCount,
        enterpriseId: body.enterpriseId,
        projectId: body.projectId,
        user: body.user,
      };
      plantings.set(key, planting);
      // Planted, but the answer never comes back (a dropped connection, a worker that died waiting).
      if (failure === "hang") return;
      res.statusCode = 200;
      res.end(JSON.stringify(planting));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    plantings,
    failNext(times = 1, how = 500) {
      for (let i = 0; i < times; i++) failures.push(how);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
