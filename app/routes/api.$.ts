import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, notFound } from "~/lib/http.server";

/** Unknown /api paths answer in the API's error shape, not with an HTML page. */
const unknownPath = apiRoute<LoaderFunctionArgs>(async () => {
  throw notFound("There is no API call at this address.");
});
export { unknownPath as loader, unknownPath as action };
