import type { ActionFunctionArgs } from "@remix-run/node";
import { LOGGED_OUT_TOAST } from "~/domain/messages";
import { endUserSession } from "~/lib/auth.server";
import { apiResource, ok } from "~/lib/http.server";
import { toastHeader } from "~/lib/toast.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const headers = new Headers();
    headers.append("Set-Cookie", await endUserSession(request));
    headers.append("Set-Cookie", await toastHeader(LOGGED_OUT_TOAST));
    return ok(null, { headers });
  },
});
