import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { isApiError } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getAuthState, startUserSession } from "~/services/accounts/current-user.server";
import { stopImpersonating } from "~/services/staff/impersonation.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  try {
    const { admin } = stopImpersonating(await getAuthState(request));
    const setCookie = await startUserSession(request, admin.id);
    return redirectWithCookies("/admin", [setCookie, await toastHeader({ type: "info", title: `Back to ${admin.email}` })]);
  } catch (error) {
    if (isApiError(error)) return redirectWithCookies("/", [await toastHeader({ type: "error", title: error.message })]);
    throw error;
  }
}
