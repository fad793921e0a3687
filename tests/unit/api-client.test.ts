import { afterEach, expect, test, vi } from "vitest";
import {
  API_RETRIES,
  API_TIMEOUT_MS,
  ApiClientError,
  NETWORK_ERROR_MESSAGE,
  createApiClient,
  isAbortError,
} from "~/lib/browser/api-client";

const jsonReply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const errorReply = (status: number, code: string, message: string, fields?: Record<string, string>) =>
  jsonReply(status, { success: false, error: { code, message, ...(fields ? { fields } : {}) } });

/** A fetch that answers from a list of replies, one per call; the last reply repeats. */
function fakeFetch(...replies: Array<Response | Error | (() => Response)>) {
  let calls = 0;
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const reply = replies[Math.min(calls++, replies.length - 1)]!;
    if (reply instanceof Error) throw reply;
    return typeof reply === "function" ? reply() : reply.clone();
  });
}

/** A fetch that never answers on its own, only rejecting when its signal aborts, as the real one does. */
function hangingFetch() {
  return vi.fn(
    (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      }),
  );
}

const noSleep = () => vi.fn(async (_ms: number) => {});

afterEach(() => {
  vi.useRealTimers();
});

test("the spec's numbers are the defaults", () => {
  expect(API_TIMEOUT_MS).toBe(45_000);
  expect(API_RETRIES).toBe(2);
});

test("sends credentials and JSON to the /api base path and returns the parsed reply", async () => {
  const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => jsonReply(200, { success: true, data: [1] }));
  const api = createApiClient({ fetch });

  const result = await api.post("/v2/tracks", { name: "Intro" }, { query: { privateKey: "k 1", skip: undefined } });

  expect(result).toEqual({ success: true, data: [1] });
  const [url, init] = fetch.mock.calls[0]!;
  expect(url).toBe("/api/v2/tracks?privateKey=k+1");
  expect(init?.credentials).toBe("include");
  expect(init?.method).toBe("POST");
  expect(init?.body).toBe(JSON.stringify({ name: "Intro" }));
  expect(init?.headers).toMatchObject({ "Content-Type": "application/json", Accept: "application/json" });
});

test("a GET that times out after 45 s is aborted and tried again", async () => {
  vi.useFakeTimers();
  const fetch = hangingFetch();
  fetch.mockImplementationOnce(fetch.getMockImplementation()!).mockImplementationOnce(async () => jsonReply(200, { ok: 1 }));
  const api = createApiClient({ fetch, sleep: noSleep() });

  const pending = api.get("/events");
  await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(fetch.mock.calls[0]![1]?.signal?.aborted).toBe(false);

  await vi.advanceTimersByTimeAsync(1);

  expect(fetch.mock.calls[0]![1]?.signal?.aborted).toBe(true);
  await expect(pending).resolves.toEqual({ ok: 1 });
  expect(fetch).toHaveBeenCalledTimes(2);
});

test("a GET that keeps timing out fails with TIMEOUT after three attempts", async () => {
  vi.useFakeTimers();
  const fetch = hangingFetch();
  const api = createApiClient({ fetch, sleep: noSleep() });

  const pending = api.get("/events");
  const outcome = expect(pending).rejects.toMatchObject({ status: 0, code: "TIMEOUT", message: NETWORK_ERROR_MESSAGE });
  await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS * 3);

  await outcome;
  expect(fetch).toHaveBeenCalledTimes(3);
});

test("a GET answered 503 is retried twice, then fails with the server's error", async () => {
  const fetch = fakeFetch(errorReply(503, "UNAVAILABLE", "Down for maintenance."));
  const api = createApiClient({ fetch, sleep: noSleep() });

  const error = await api.get("/events").catch((e: unknown) => e);

  expect(fetch).toHaveBeenCalledTimes(3);
  expect(error).toBeInstanceOf(ApiClientError);
  expect(error).toMatchObject({ status: 503, code: "UNAVAILABLE", message: "Down for maintenance." });
});

test("a GET that gets a 500 and then succeeds returns the success", async () => {
  const fetch = fakeFetch(errorReply(500, "INTERNAL", "Oops."), jsonReply(200, { data: "ok" }));
  const api = createApiClient({ fetch, sleep: noSleep() });

  await expect(api.get("/events")).resolves.toEqual({ data: "ok" });
  expect(fetch).toHaveBeenCalledTimes(2);
});

test("PUT and DELETE are retried like GET", async () => {
  const fetch = fakeFetch(errorReply(502, "BAD_GATEWAY", "Bad gateway."));
  const api = createApiClient({ fetch, sleep: noSleep() });

  await expect(api.put("/v2/themes/1", { name: "x" })).rejects.toBeInstanceOf(ApiClientError);
  await expect(api.delete("/v2/themes/1")).rejects.toBeInstanceOf(ApiClientError);

  expect(fetch).toHaveBeenCalledTimes(6);
});

test("a POST answered 503 is sent exactly once", async () => {
  const fetch = fakeFetch(errorReply(503, "UNAVAILABLE", "Down."));
  const sleep = noSleep();
  const api = createApiClient({ fetch, sleep });

  await expect(api.post("/event", { name: "Party" })).rejects.toMatchObject({ status: 503 });

  expect(fetch).toHaveBeenCalledTimes(1);
  expect(sleep).not.toHaveBeenCalled();
});

test("a POST that hits a network error is not retried either", async () => {
  const fetch = fakeFetch(new TypeError("Failed to fetch"));
  const api = createApiClient({ fetch, sleep: noSleep() });

  await expect(api.post("/v2/rsvps", {})).rejects.toMatchObject({ code: "NETWORK" });
  expect(fetch).toHaveBeenCalledTimes(1);
});

test("a 404 is not retried and its code, message and fields reach the caller", async () => {
  const fetch = fakeFetch(errorReply(404, "NOT_FOUND", "No such event.", { id: "Unknown id" }));
  const api = createApiClient({ fetch, sleep: noSleep() });

  const error = await api.get("/event/9").catch((e: unknown) => e);

  expect(fetch).toHaveBeenCalledTimes(1);
  expect(error).toBeInstanceOf(ApiClientError);
  expect(error).toMatchObject({ status: 404, code: "NOT_FOUND", message: "No such event.", fields: { id: "Unknown id" } });
});

test("an error reply that is not the API shape still becomes a typed error", async () => {
  const fetch = fakeFetch(() => new Response("<html>Bad request</html>", { status: 400 }));
  const api = createApiClient({ fetch, sleep: noSleep() });

  const error = await api.get("/events").catch((e: unknown) => e);

  expect(error).toBeInstanceOf(ApiClientError);
  expect(error).toMatchObject({ status: 400, code: "HTTP_400", fields: undefined });
});

test("a network error on a GET is retried and can recover", async () => {
  const fetch = fakeFetch(new TypeError("Failed to fetch"), jsonReply(200, { data: 1 }));
  const api = createApiClient({ fetch, sleep: noSleep() });

  await expect(api.get("/events")).resolves.toEqual({ data: 1 });
  expect(fetch).toHaveBeenCalledTimes(2);
});

test("a network error that persists fails with NETWORK and the friendly message", async () => {
  const cause = new TypeError("Failed to fetch");
  const fetch = fakeFetch(cause);
  const api = createApiClient({ fetch, sleep: noSleep() });

  const error = await api.get("/events").catch((e: unknown) => e);

  expect(fetch).toHaveBeenCalledTimes(3);
  expect(error).toMatchObject({ status: 0, code: "NETWORK", message: NETWORK_ERROR_MESSAGE, cause });
});

test("the backoff doubles between retries, starting from the base delay", async () => {
  const fetch = fakeFetch(errorReply(503, "UNAVAILABLE", "Down."));
  const sleep = noSleep();
  const api = createApiClient({ fetch, sleep, retryDelayMs: 500 });

  await api.get("/events").catch(() => {});

  expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([500, 1000]);
});

test("each further retry doubles the delay again", async () => {
  const fetch = fakeFetch(new TypeError("Failed to fetch"));
  const sleep = noSleep();
  const api = createApiClient({ fetch, sleep, retries: 4, retryDelayMs: 100 });

  await api.get("/events").catch(() => {});

  expect(fetch).toHaveBeenCalledTimes(5);
  expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100, 200, 400, 800]);
});

test("the default backoff really waits 500 ms then 1000 ms", async () => {
  vi.useFakeTimers();
  const fetch = fakeFetch(new TypeError("Failed to fetch"));
  const api = createApiClient({ fetch });

  const outcome = expect(api.get("/events")).rejects.toMatchObject({ code: "NETWORK" });
  await vi.advanceTimersByTimeAsync(499);
  expect(fetch).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(fetch).toHaveBeenCalledTimes(2);
  await vi.advanceTimersByTimeAsync(999);
  expect(fetch).toHaveBeenCalledTimes(2);
  await vi.advanceTimersByTimeAsync(1);
  expect(fetch).toHaveBeenCalledTimes(3);
  await outcome;
});

test("an abort by the caller rejects with an AbortError and is not retried", async () => {
  const fetch = hangingFetch();
  const sleep = noSleep();
  const api = createApiClient({ fetch, sleep });
  const controller = new AbortController();

  const pending = api.get("/events", { signal: controller.signal });
  controller.abort();
  const error = await pending.catch((e: unknown) => e);

  expect(isAbortError(error)).toBe(true);
  expect(error).toMatchObject({ name: "AbortError" });
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(sleep).not.toHaveBeenCalled();
});

test("an aborted POST, such as a logout cut short, rejects with an AbortError rather than a network error", async () => {
  const fetch = hangingFetch();
  const api = createApiClient({ fetch });
  const controller = new AbortController();

  const pending = api.post("/v2/auth/logout", undefined, { signal: controller.signal });
  controller.abort();

  await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  expect(fetch).toHaveBeenCalledTimes(1);
});

test("an abort during the backoff stops further attempts", async () => {
  const fetch = fakeFetch(errorReply(503, "UNAVAILABLE", "Down."));
  const controller = new AbortController();
  const api = createApiClient({ fetch, sleep: () => new Promise(() => {}) });

  const pending = api.get("/events", { signal: controller.signal });
  await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
  controller.abort();

  await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  expect(fetch).toHaveBeenCalledTimes(1);
});

test("an already aborted signal never reaches the network", async () => {
  const fetch = fakeFetch(jsonReply(200, {}));
  const api = createApiClient({ fetch });

  await expect(api.get("/events", { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  expect(fetch).not.toHaveBeenCalled();
});
