import { z } from "zod";
import { notFound } from "./http.server";

const uuid = z.uuid();

/** A route's id parameter, or a 404: a malformed id must never reach SQL as a 500. */
export function uuidParam(value: string | undefined, what = "record") {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw notFound(`There is no ${what} with this id.`);
  return parsed.data;
}

/** A list's page from the address's `page`: 1 when it is missing or not a page number. */
export function pageParam(url: URL) {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}
