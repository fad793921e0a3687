import { json } from "@remix-run/node";
import { z } from "zod";
import { fieldErrors, isApiError, validateInput } from "./http.server";
import { formDataOf, readBodyBytes } from "./request-body.server";

export interface FormReply {
  ok?: boolean;
  message?: string;
  formError?: string;
  errors?: Record<string, string>;
  /** What was typed, so a failed submit loses nothing (passwords excepted). */
  values?: Record<string, string>;
}

const SECRET_FIELDS = /password/i;

/** A page's form is a few fields: more than this is no form of ours (files go through the upload routes). */
const MAX_FORM_BYTES = 1024 * 1024;

/**
 * A page action's form. A body that is not form data (JSON, text, a broken multipart) comes from
 * no browser form: it is answered 400 and its page's error boundary, not a 500; one past
 * MAX_FORM_BYTES a 413, read no further (request-body.server.ts).
 */
export async function readForm(request: Request): Promise<FormData> {
  const tooLarge = () => json<FormReply>({ formError: "This form is too large to send." }, { status: 413 });
  const bytes = await readBodyBytes(request, MAX_FORM_BYTES, tooLarge);
  try {
    return await formDataOf(bytes, request.headers.get("content-type") ?? "");
  } catch {
    throw json<FormReply>({ formError: "This form could not be read. Reload the page and try again." }, { status: 400 });
  }
}

function keptValues(form: FormData, lists: readonly string[]) {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !SECRET_FIELDS.test(key)) values[key] = value;
  // A field sent several times (ticked boxes of one name) is kept as its values joined by commas.
  for (const key of lists) values[key] = listOf(form, key).join(",");
  return values;
}

const listOf = (form: FormData, key: string) => form.getAll(key).filter((value): value is string => typeof value === "string");

/**
 * The action side of a progressive form: validate with the shared schema, run the
 * use case, and on failure answer the same page with field errors and the values.
 * Fields named in `lists` (boxes of one name) reach the schema as arrays of every value sent.
 */
export async function handleForm<S extends z.ZodType>(
  form: FormData,
  schema: S,
  run: (input: z.infer<S>) => Promise<Response>,
  options: { lists?: readonly string[] } = {},
): Promise<Response> {
  const lists = options.lists ?? [];
  const values = keptValues(form, lists);
  const input: Record<string, unknown> = Object.fromEntries(form.entries());
  for (const key of lists) input[key] = listOf(form, key);
  const parsed = validateInput(schema, input);
  if (!parsed.success) return json<FormReply>({ errors: fieldErrors(parsed.error), values }, { status: 400 });
  try {
    return await run(parsed.data);
  } catch (error) {
    if (isApiError(error)) {
      return json<FormReply>({ formError: error.message, errors: error.fields, values }, { status: error.status, headers: error.headers });
    }
    throw error;
  }
}

/**
 * Field errors for text the database cannot keep, in any value of any field, for actions that
 * keep a form without a schema of their own (a draft in the session); null when there is none.
 */
export function unstorableFormFields(form: FormData): Record<string, string> | null {
  const checked = validateInput(z.unknown(), form);
  return checked.success ? null : fieldErrors(checked.error);
}
