import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { LOGGED_OUT_TOAST } from "~/domain/messages";
import { endUserSession } from "~/lib/auth.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  return redirectWithCookies("/", [await endUserSession(request), await toastHeader(LOGGED_OUT_TOAST)]);
}
