import { z } from "zod";
import { notFound } from "./http.server";

const uuid = z.uuid();

/** A route's id parameter, or a 404: a malformed id must never reach SQL as a 500. */
export function uuidParam(value: string | undefined, what = "record") {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw notFound(`There is no ${what} with this id.`);
  return parsed.data;
}
