import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { REPORT_SENT_TOAST } from "~/domain/messages";
import { apiResource, clientIp, ok, readBody, parseWith } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { reportEvent } from "~/services/events/event-reports.server";
import { openEvent } from "~/services/events/events.server";

const reportInput = z.object({ reason: z.string().trim().max(2000, "Keep it under 2,000 characters.").optional().default("") });

/** POST /api/v2/events/{id}/report: the footer's "Report This Page". A plain form post comes back to the page. */
export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request, params }) {
    const isForm = !(request.headers.get("content-type") ?? "").includes("json");
    const { event, viewer } = await openEvent(await getUser(request), uuidParam(params.id, "Chorus"));
    const { reason } = parseWith(reportInput, await readBody(request));
    await reportEvent(event, { user: viewer.user, ip: clientIp(request) }, reason);
    if (isForm) return redirectWithCookies(backToReportedPage(request, event.uuid), [await toastHeader(REPORT_SENT_TOAST)]);
    return ok({ reported: true });
  },
});

/** Back to the page the report came from (with its keys), if it was this event's page. */
function backToReportedPage(request: Request, uuid: string) {
  const fallback = `/e/${uuid}`;
  try {
    const referer = new URL(request.headers.get("referer") ?? "");
    if (referer.origin === new URL(request.url).origin && referer.pathname === fallback) return fallback + referer.search;
  } catch {
    /* no or bad referer */
  }
  return fallback;
}
