import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { LOGGED_OUT_TOAST } from "~/domain/messages";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { endUserSession } from "~/services/accounts/current-user.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  return redirectWithCookies("/", [await endUserSession(request), await toastHeader(LOGGED_OUT_TOAST)]);
}
