import crypto from "node:crypto";
import http from "node:http";

// A stand-in for Stripe's API on loopback, for the parts the payments adapter calls: checkout
// sessions (create, retrieve), coupons, billing portal sessions, refunds and a subscription's cancellation. The official SDK builds and
// sends real requests to it (STRIPE_API_HOST/PORT/PROTOCOL); it records each one and answers as
// Stripe does, idempotency keys included: a POST with a key it has seen gets the first answer again.

export interface RecordedStripeRequest {
  method: string;
  path: string;
  /** The form-encoded body, bracketed names as sent (`line_items[0][quantity]`). */
  form: URLSearchParams;
  idempotencyKey: string | null;
  authorization: string | null;
}

export type StandInFailure = "server-error" | "no-answer";

export interface StripeStandIn {
  port: number;
  requests: RecordedStripeRequest[];
  /** Checkout sessions it made, by id; a test may change one (mark it paid). */
  sessions: Map<string, Record<string, unknown>>;
  /** The next `times` requests fail this way. */
  fail(failure: StandInFailure, times?: number): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${crypto.randomBytes(8).toString("hex")}`;

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedStripeRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const coupons = new Map<string, { amount_off: number }>();
  const replies = new Map<string, { status: number; body: unknown }>();
  const failures: StandInFailure[] = [];
  const held = new Set<http.ServerResponse>();

  function answer(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    const checkout = /^\/v1\/checkout\/sessions(?:\/([^/]+))?$/.exec(path);
    if (path === "/v1/coupons" && method === "POST") {
      const coupon = { id: id("co"), object: "coupon", amount_off: Number(form.get("amount_off")), currency: form.get("currency") };
      coupons.set(coupon.id, coupon);
      return { status: 200, body: coupon };
    }
    if (checkout && method === "POST" && !checkout[1]) {
      const subtotal = [...form.keys()]
        .filter((k) => /^line_items\[\d+\]\[quantity\]$/.test(k))
        .reduce((sum, k) => sum + Number(form.get(k)) * Number(form.get(k.replace("[quantity]", "[price_data][unit_amount]"))), 0);
      const coupon = coupons.get(form.get("discounts[0][coupon]") ?? "");
      const created = Math.floor(Date.now() / 1000);
      const session = {
        id: id("cs"),
        object: "checkout.session",
        mode: form.get("mode"),
        status: "open",
        payment_status: "unpaid",
        amount_subtotal: subtotal,
        amount_total: subtotal - Math.min(coupon?.amount_off ?? 0, subtotal),
        created,
        // Stripe's own 24 hours unless the request names its expiry.
        expires_at: Number(form.get("expires_at") ?? created + 86_400),
        currency: form.get("line_items[0][price_data][currency]"),
        customer: form.get("customer"),
        customer_email: form.get("customer_email"),
        client_reference_id: form.get("client_reference_id"),
        metadata: Object.fromEntries([...form].filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v])),
        payment_intent: null,
        subscription: null,
        url: "https://checkout.stripe.test/c/pay/" + crypto.randomBytes(6).toString("hex"),
      };
      sessions.set(session.id, session);
      return { status: 200, body: session };
    }
    if (checkout && method === "GET" && checkout[1]) {
      const session = sessions.get(checkout[1]);
      if (session) return { status: 200, body: session };
      return {
        status: 404,
        body: {
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            param: "session",
            message: `No such checkout.session: '${checkout[1]}'`,
          },
        },
      };
    }
    if (path === "/v1/billing_portal/sessions" && method === "POST") {
      return {
        status: 200,
        body: {
          id: id("bps"),
          object: "billing_portal.session",
          customer: form.get("customer"),
          url: "https://billing.stripe.test/p/session/x",
        },
      };
    }
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscription && method === "POST") {
      const cancel = form.get("cancel_at_period_end") === "true";
      const periodEnd = 1_900_000_000;
      return {
        status: 200,
        body: {
          id: subscription[1],
          object: "subscription",
          status: "active",
          customer: "cus_test_1",
          cancel_at_period_end: cancel,
          cancel_at: cancel ? periodEnd : null,
          items: { object: "list", data: [{ id: id("si"), object: "subscription_item", current_period_end: periodEnd }] },
          metadata: {},
        },
      };
    }
    if (path === "/v1/refunds" && method === "POST") {
      return {
        status: 200,
        body: {
          id: id("re"),
          object: "refund",
          payment_intent: form.get("payment_intent"),
          amount: Number(form.get("amount")),
          status: "succeeded",
        },
      };
    }
    return { status: 404, body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url!, "http://stand-in");
      const idempotencyKey = req.headers["idempotency-key"] ? String(req.headers["idempotency-key"]) : null;
      const form = new URLSearchParams(req.method === "GET" ? url.search : raw);
      requests.push({ method: req.method!, path: url.pathname, form, idempotencyKey, authorization: req.headers.authorization ?? null });
      const failure = failures.shift();
      if (failure === "no-answer") {
        held.add(res);
        return;
      }
      res.setHeader("content-type", "application/json");
      res.setHeader("request-id", id("req"));
      if (failure === "server-error") {
        res.statusCode = 500;
        return res.end(JSON.stringify({ error: { type: "api_error", message: "An unknown error occurred" } }));
      }
      const replayKey = req.method === "POST" && idempotencyKey ? `${url.pathname} ${idempotencyKey}` : null;
      const reply = (replayKey && replies.get(replayKey)) || answer(req.method!, url.pathname, form);
      if (replayKey && reply.status < 500) replies.set(replayKey, reply);
      res.statusCode = reply.status;
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    requests,
    sessions,
    fail(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
