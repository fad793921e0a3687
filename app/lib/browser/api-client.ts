import { PRODUCT_NAME } from "~/domain/product";
// Type-only, so nothing server-side reaches the browser bundle; keeps one error shape for both ends.
import type { ApiErrorBody } from "~/lib/http.server";

/** Every product call goes through these numbers (spec §7, §9). */
export const API_BASE_PATH = "/api";
export const API_TIMEOUT_MS = 45_000;
export const API_RETRIES = 2;
export const API_RETRY_DELAY_MS = 500;

export const NETWORK_ERROR_MESSAGE = `Could not reach ${PRODUCT_NAME}. Check your connection and try again.`;
const UNREADABLE_REPLY_MESSAGE = "Something went wrong. Please try again.";

// Repeating any of these leaves the server as one attempt would; POST may create twice, so it never retries.
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

export class ApiClientError extends Error {
  override name = "ApiClientError";
  constructor(
    /** 0 when no reply arrived (NETWORK, TIMEOUT). */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Callers ignore aborted connections (spec §8): this is how they recognise one. */
export const isAbortError = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";

const abortError = () => new DOMException("The request was aborted.", "AbortError");

export interface ApiClientOptions {
  fetch?: typeof fetch;
  baseUrl?: string;
  timeoutMs?: number;
  retries?: number;
  /** First backoff delay; each further retry doubles it. */
  retryDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | null | undefined>;
}

type Attempt = { ok: true; data: unknown } | { ok: false; error: ApiClientError; retryable: boolean };

const UNPARSEABLE = Symbol("unparseable");

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return UNPARSEABLE;
  }
}

function errorFromReply(status: number, body: unknown): ApiClientError {
  const error = (body as Partial<ApiErrorBody> | null)?.error;
  if (typeof body === "object" && body && (body as { success?: unknown }).success === false && error) {
    if (typeof error.code === "string" && typeof error.message === "string") {
      const fields = error.fields && typeof error.fields === "object" ? error.fields : undefined;
      return new ApiClientError(status, error.code, error.message, fields);
    }
  }
  return new ApiClientError(status, `HTTP_${status}`, UNREADABLE_REPLY_MESSAGE);
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions["query"]) {
  const url = `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}${url.includes("?") ? "&" : "?"}${search}` : url;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createApiClient(options: ApiClientOptions = {}) {
  // Resolved per call so the module can load on the server and tests can stub the global.
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseUrl = options.baseUrl ?? API_BASE_PATH;
  const timeoutMs = options.timeoutMs ?? API_TIMEOUT_MS;
  const retries = options.retries ?? API_RETRIES;
  const retryDelayMs = options.retryDelayMs ?? API_RETRY_DELAY_MS;
  const sleep = options.sleep ?? defaultSleep;

  async function attemptOnce(url: string, init: RequestInit, callerSignal?: AbortSignal): Promise<Attempt> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = () => controller.abort();
    callerSignal?.addEventListener("abort", forwardAbort, { once: true });
    try {
      const response = await fetchImpl(url, { ...init, signal: controller.signal });
      const body = await readJson(response);
      if (!response.ok) return { ok: false, error: errorFromReply(response.status, body), retryable: response.status >= 500 };
      if (body === UNPARSEABLE) {
        return { ok: false, error: new ApiClientError(response.status, "INVALID_RESPONSE", UNREADABLE_REPLY_MESSAGE), retryable: false };
      }
      return { ok: true, data: body };
    } catch (cause) {
      if (callerSignal?.aborted) throw abortError();
      const code = timedOut ? "TIMEOUT" : "NETWORK";
      return { ok: false, error: new ApiClientError(0, code, NETWORK_ERROR_MESSAGE, undefined, { cause }), retryable: true };
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", forwardAbort);
    }
  }

  // A caller who gives up during the backoff should not wait it out.
  function wait(ms: number, signal?: AbortSignal) {
    if (!signal) return sleep(ms);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(abortError());
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      sleep(ms).then(() => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) onAbort();
        else resolve();
      }, reject);
    });
  }

  async function request<T = unknown>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    const verb = method.toUpperCase();
    const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const init: RequestInit = {
      method: verb,
      credentials: "include",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    const url = buildUrl(baseUrl, path, opts.query);
    const maxAttempts = IDEMPOTENT_METHODS.has(verb) ? retries + 1 : 1;

    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw abortError();
      const outcome = await attemptOnce(url, init, opts.signal);
      if (outcome.ok) return outcome.data as T;
      if (!outcome.retryable || attempt + 1 >= maxAttempts) throw outcome.error;
      await wait(retryDelayMs * 2 ** attempt, opts.signal);
    }
  }

  return {
    request,
    get: <T = unknown>(path: string, opts?: RequestOptions) => request<T>("GET", path, undefined, opts),
    post: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>("POST", path, body, opts),
    put: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>("PUT", path, body, opts),
    delete: <T = unknown>(path: string, opts?: RequestOptions) => request<T>("DELETE", path, undefined, opts),
  };
}

export const api = createApiClient();
