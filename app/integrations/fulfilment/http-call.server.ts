import { FulfilmentServiceError } from "./fulfilment-port";

// One JSON call to a fulfilment service's REST API, with a time limit. What went wrong becomes a
// FulfilmentServiceError that says whether trying again may help (no answer, 408, 429, 5xx);
// a 404 answers null so a missing order reads as "no such order".

export interface HttpCall {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  /** The service's name for messages ("The disc service …"). */
  service: string;
}

export async function callService(call: HttpCall): Promise<Record<string, unknown> | null> {
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers: { accept: "application/json", ...(call.body ? { "content-type": "application/json" } : {}), ...call.headers },
      body: call.body ? JSON.stringify(call.body) : undefined,
      signal: AbortSignal.timeout(call.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new FulfilmentServiceError(`The ${call.service} ${timedOut ? "did not answer in time" : "could not be reached"}.`, true);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.status === 404 && call.method === "GET") return null;
  if (!response.ok) {
    const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
    throw new FulfilmentServiceError(`The ${call.service} answered ${response.status}${reasonIn(body)}.`, retryable);
  }
  if (!body || typeof body !== "object") throw new FulfilmentServiceError(`The ${call.service} sent an answer we cannot read.`, true);
  return body as Record<string, unknown>;
}

function reasonIn(body: unknown) {
  const record = (body ?? {}) as Record<string, unknown>;
  const error = record.error as Record<string, unknown> | string | undefined;
  const message = typeof error === "string" ? error : typeof error?.message === "string" ? error.message : record.message;
  return typeof message === "string" && message ? `: ${message.slice(0, 200)}` : "";
}
