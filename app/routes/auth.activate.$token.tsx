import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { isApiError } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { activateWithToken } from "~/services/accounts/auth.server";
import { getUser, startUserSession } from "~/services/accounts/current-user.server";

export const meta: MetaFunction = () => [{ title: `Confirm e-mail — ${PRODUCT_NAME}` }];

/**
 * Following the link proves the address, so it signs the owner in and lands them on the
 * dashboard. The token is consumed by activateWithToken, so a second visit shows the error.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const result = await activateWithToken(params.token ?? "");
    const current = await getUser(request);
    const session = current?.id === result.user.id ? null : await startUserSession(request, result.user.id);
    const toast =
      result.kind === "verified"
        ? { type: "success" as const, title: "Your e-mail is confirmed", description: "Thanks! Your account is ready." }
        : {
            type: "success" as const,
            title: "Your e-mail address is changed",
            description: `From now on you log in with ${result.user.email}.`,
          };
    return redirectWithCookies("/dashboard", [session, await toastHeader(toast)]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return json({ message: error.message }, { status: error.status });
  }
}

export default function ActivatePage() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="card form-card">
      <h1>This link didn't work</h1>
      <p>{data.message}</p>
      <p>
        <Link className="button" to="/auth/verify-email">
          Send me a new link
        </Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
