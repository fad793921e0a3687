import type { ActionFunctionArgs } from "@remix-run/node";
import { LOGGED_OUT_TOAST } from "~/domain/messages";
import { apiResource, ok } from "~/lib/http.server";
import { toastHeader } from "~/lib/toast.server";
import { endUserSession } from "~/services/accounts/current-user.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async POST({ request }) {
    const headers = new Headers();
    headers.append("Set-Cookie", await endUserSession(request));
    headers.append("Set-Cookie", await toastHeader(LOGGED_OUT_TOAST));
    return ok(null, { headers });
  },
});
