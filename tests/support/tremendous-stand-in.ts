import crypto from "node:crypto";
import http from "node:http";

// A stand-in for Tremendous's API on loopback, for the parts the gift-card adapter calls: products
// (list by country, retrieve) and orders (create, retrieve). The official SDK sends real requests to
// it; it records each one and answers in Tremendous's shapes, a repeated external_id included (the
// first order comes back, as Tremendous does).

export interface RecordedTremendousRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
  authorization: string | null;
}

export interface TremendousStandIn {
  url: string;
  requests: RecordedTremendousRequest[];
  /** Orders it made, by id; a test may change one (fail it, deliver it). */
  orders: Map<string, Record<string, unknown>>;
  /** The next `times` requests answer 500. */
  failNext(times?: number): void;
  close(): Promise<void>;
}

const PRODUCTS = [
  {
    id: "OKMHM2X2OHYV",
    name: "Amazon.com",
    description: "Amazon.com gift card",
    category: "merchant_card",
    disclosure: "",
    skus: [{ min: 5, max: 2000 }],
    currency_codes: ["USD"],
    countries: [{ abbr: "US" }],
    images: [{ src: "https://images.tremendous.test/amazon.png", type: "card" }],
  },
  {
    id: "Q24BD9EZ332JT",
    name: "Donation to Red Cross",
    description: "A donation",
    category: "charity",
    disclosure: "",
    skus: [{ min: 1, max: 500 }],
    currency_codes: ["USD"],
    countries: [{ abbr: "US" }, { abbr: "CA" }],
    images: [],
  },
  {
    id: "ET0ZVETV5ILN",
    name: "Argos",
    description: "Argos gift card",
    category: "merchant_card",
    disclosure: "",
    skus: [{ min: 10, max: 250 }],
    currency_codes: ["GBP"],
    countries: [{ abbr: "GB" }],
    images: [],
  },
];

export async function startTremendousStandIn(): Promise<TremendousStandIn> {
  const requests: RecordedTremendousRequest[] = [];
  const orders = new Map<string, Record<string, unknown>>();
  let failures = 0;

  function answer(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown> | null,
  ): { status: number; body: unknown } {
    if (method === "GET" && path === "/api/v2/products") {
      const country = query.get("country");
      return { status: 200, body: { products: PRODUCTS.filter((p) => !country || p.countries.some((c) => c.abbr === country)) } };
    }
    const product = /^\/api\/v2\/products\/([^/]+)$/.exec(path);
    if (method === "GET" && product) {
      const found = PRODUCTS.find((p) => p.id === product[1]);
      return found ? { status: 200, body: { product: found } } : { status: 404, body: { errors: { message: "Record not found" } } };
    }
    if (method === "POST" && path === "/api/v2/orders" && body) {
      const existing = [...orders.values()].find((o) => body.external_id && o.external_id === body.external_id);
      if (existing) return { status: 201, body: { order: existing } };
      const orderId = crypto.randomBytes(6).toString("hex").toUpperCase();
      const reward = body.reward as Record<string, unknown>;
      const order = {
        id: orderId,
        external_id: body.external_id ?? null,
        created_at: new Date().toISOString(),
        status: "EXECUTED",
        rewards: [
          {
            id: `R${orderId}`,
            order_id: orderId,
            value: reward.value,
            recipient: reward.recipient,
            delivery: { method: "LINK", status: "SUCCEEDED", link: `https://reward.tremendous.test/${orderId}` },
          },
        ],
      };
      orders.set(orderId, order);
      return { status: 200, body: { order } };
    }
    const order = /^\/api\/v2\/orders\/([^/]+)$/.exec(path);
    if (method === "GET" && order) {
      const found = orders.get(order[1]!);
      return found ? { status: 200, body: { order: found } } : { status: 404, body: { errors: { message: "Record not found" } } };
    }
    return { status: 404, body: { errors: { message: `No route ${method} ${path}` } } };
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url!, "http://stand-in");
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      requests.push({
        method: req.method!,
        path: url.pathname,
        query: url.searchParams,
        body,
        authorization: req.headers.authorization ?? null,
      });
      res.setHeader("content-type", "application/json");
      if (failures > 0) {
        failures--;
        res.statusCode = 500;
        return res.end(JSON.stringify({ errors: { message: "Internal error" } }));
      }
      const reply = answer(req.method!, url.pathname, url.searchParams, body);
      res.statusCode = reply.status;
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    requests,
    orders,
    failNext(times = 1) {
      failures += times;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
