import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { downloadResponse } from "~/lib/file-response.server";
import { apiResource } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { findEventById } from "~/models/event.server";
import { requireApiAdmin } from "~/services/accounts/current-user.server";
import { eventNotFound } from "~/services/events/events.server";
import { chorusPackage } from "~/services/staff/chorus-package.server";

/**
 * GET /api/admin/choruspackage/{eventId}: the originals, the video and the messages as one zip,
 * streamed. Administrators only (spec §6: video package compression is an admin-only route): the
 * organiser has the full-quality download once the Chorus is paid, and every original as the
 * add-on (docs/decisions/018, 045); 401 for no one, 403 for anyone else.
 */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    await requireApiAdmin(request);
    const event = await findEventById(db(), uuidParam(params.id, "Chorus"), { withDeleted: true });
    if (!event) throw eventNotFound();
    const { fileName, body } = await chorusPackage(event);
    return downloadResponse(body, { fileName, contentType: "application/zip" });
  },
});
