import { json } from "@remix-run/node";
import { z } from "zod";
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPaths } from "~/domain/storable-text";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "./database-errors.server";
import { formDataOf, readBodyBytes } from "./request-body.server";

export interface ApiErrorBody {
  success: false;
  error: { code: string; message: string; fields?: Record<string, string> };
}

const API_ERROR = Symbol.for("chorus.api-error");

/** A failure the caller can act on: answered as `{success:false, error}` with a 4xx status. */
export class ApiError extends Error {
  readonly [API_ERROR] = true;
  override name = "ApiError";

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: HeadersInit,
  ) {
    super(message);
  }
}

/**
 * Recognises an ApiError by its brand rather than its class: the server entry and
 * the Remix build each hold a copy of this module, and an error may cross between them.
 */
export const isApiError = (error: unknown): error is ApiError =>
  typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[API_ERROR] === true;

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new ApiError(400, fields ? "VALIDATION_FAILED" : "BAD_REQUEST", message, fields);
export const unauthorized = (message = "Please log in to continue.") => new ApiError(401, "UNAUTHORIZED", message);
export const forbidden = (message = "You are not allowed to do that.") => new ApiError(403, "FORBIDDEN", message);
export const notFound = (message = "Not found.") => new ApiError(404, "NOT_FOUND", message);
/** The database could not be reached (lost, restarting): the same request may work in a moment. */
export const databaseUnavailable = () =>
  new ApiError(503, "UNAVAILABLE", DATABASE_UNAVAILABLE_MESSAGE, undefined, { "Retry-After": String(RETRY_AFTER_SECONDS) });

/** A failure in a page loader becomes the page's error boundary with the same status. */
export function asPageError(error: unknown) {
  if (isApiError(error)) return new Response(error.message, { status: error.status });
  return error;
}

export function apiErrorResponse(error: ApiError) {
  const body: ApiErrorBody = {
    success: false,
    error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
  };
  return json(body, { status: error.status, headers: error.headers });
}

/** First message per field, keyed by dotted path ("form" for the whole payload). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "form";
    fields[key] ??= issue.message;
  }
  return fields;
}

const MAX_BODY_BYTES = 1024 * 1024;

export const payloadTooLarge = () => new ApiError(413, "PAYLOAD_TOO_LARGE", "The request body is too large.");

/** A request's raw bytes, as a signature covers them: a 413 past `maxBytes`, counted as they arrive (request-body.server.ts). */
export const readRawBody = (request: Request, maxBytes: number) => readBodyBytes(request, maxBytes, payloadTooLarge);

/** Reads a JSON, urlencoded or multipart body as a plain object; malformed bodies are a 400, one past 1 MB a 413. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const bytes = await readRawBody(request, MAX_BODY_BYTES);
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    const text = new TextDecoder().decode(bytes);
    if (!text.trim()) return {};
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest("The request body is not valid JSON.");
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) throw badRequest("The request body must be a JSON object.");
    return value as Record<string, unknown>;
  }
  if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    const form = await formDataOf(bytes, type).catch(() => {
      throw badRequest("The form data could not be read.");
    });
    return Object.fromEntries([...form.keys()].map((k) => [k, form.getAll(k).length > 1 ? form.getAll(k) : form.get(k)]));
  }
  if (new TextDecoder().decode(bytes).trim()) throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send JSON or form data.");
  return {};
}

/**
 * The one way input is checked: first for text the database cannot keep, in any field the
 * payload has (docs/decisions/017-one-rule-for-unstorable-text.md), then against the schema.
 * Both fail as a ZodError, so forms and the API name the field the same way.
 */
export function validateInput<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.infer<S>> {
  const unstorable = unstorableTextPaths(input);
  if (unstorable.length) {
    const issues = unstorable.map((place) => ({
      code: "custom" as const,
      path: place === "form" ? [] : [place],
      message: UNSTORABLE_TEXT_MESSAGE,
      input: undefined,
    }));
    return { success: false, error: new z.ZodError(issues) as z.ZodError<z.infer<S>> };
  }
  return schema.safeParse(input);
}

/** Validates any input against a schema; failures become a 400 with one message per field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = validateInput(schema, input);
  if (!result.success) throw badRequest("Some fields need your attention.", fieldErrors(result.error));
  return result.data;
}

export async function parseBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  return parseWith(schema, await readBody(request));
}

export function ok<T>(data: T, init?: ResponseInit) {
  return json({ success: true as const, data }, init);
}

/**
 * Wraps an API loader/action: known failures become their 4xx answer, a database that cannot be
 * reached a 503 "try again", anything else a logged 500 without internals. Responses thrown by
 * helpers pass through.
 */
export function apiRoute<A extends { request: Request }>(handler: (args: A) => Promise<Response>) {
  return async (args: A): Promise<Response> => {
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof Response) return error;
      if (isApiError(error)) return apiErrorResponse(error);
      if (isDatabaseUnavailable(error)) {
        console.warn(
          `${args.request.method} ${new URL(args.request.url).pathname}: the database is unavailable:`,
          (error as Error).message,
        );
        return apiErrorResponse(databaseUnavailable());
      }
      console.error(`${args.request.method} ${new URL(args.request.url).pathname} failed:`, error);
      return apiErrorResponse(new ApiError(500, "INTERNAL", "Something went wrong on our side. Please try again."));
    }
  };
}

export const methodNotAllowed = () => new ApiError(405, "METHOD_NOT_ALLOWED", "This method is not supported here.");

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Handler<A> = (args: A) => Promise<Response>;

/**
 * An /api resource route: one handler per method, every other method a JSON 405,
 * and every failure in the one error shape. Use as
 * `export const { loader, action } = apiResource({ GET: ..., PUT: ... })`.
 */
export function apiResource<A extends { request: Request }>(handlers: Partial<Record<Method, Handler<A>>>) {
  const dispatch = apiRoute<A>(async (args) => {
    const handler = handlers[args.request.method as Method];
    if (!handler) throw methodNotAllowed();
    return handler(args);
  });
  return { loader: dispatch, action: dispatch };
}

/** Header server.ts sets from Express's view of the caller (honours TRUST_PROXY); any value a client sends is dropped. */
export const CLIENT_IP_HEADER = "x-chorus-client-ip";

export const clientIp = (request: Request) => request.headers.get(CLIENT_IP_HEADER) ?? "unknown";

/**
 * For the few GET calls that change the session (impersonation): a top-level
 * navigation started by another site must not trigger them.
 */
export function refuseCrossSiteNavigation(request: Request) {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new ApiError(403, "CROSS_ORIGIN", "This request came from another site and was refused.");
  }
}
