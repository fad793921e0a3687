import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { apiResource, ok } from "~/lib/http.server";
import { listActiveAnnouncements } from "~/models/announcement.server";

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET() {
    return ok(await listActiveAnnouncements(db()), { headers: { "Cache-Control": "public, max-age=60" } });
  },
});
