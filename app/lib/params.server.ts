import { isUuid } from "~/domain/uuid";
import { notFound } from "./http.server";

/** A route's id parameter, or a 404: a malformed id must never reach SQL as a 500. */
export function uuidParam(value: string | undefined, what = "record") {
  if (!isUuid(value)) throw notFound(`There is no ${what} with this id.`);
  return value;
}

/** A list's page from the address's `page`: 1 when it is missing or not a page number. */
export function pageParam(url: URL) {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}
