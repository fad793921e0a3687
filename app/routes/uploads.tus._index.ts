import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, notFound } from "~/lib/http.server";

/**
 * GET /uploads/tus with no upload id: tus's other methods are answered before Remix, and this
 * address is no page, so it answers like an unknown upload (JSON), not with the HTML 404 page.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async () => {
  throw notFound("There is no upload at this address.");
});
