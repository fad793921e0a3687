import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/domain/product";
import { getUser } from "~/lib/auth.server";
import { isApiError } from "~/lib/http.server";
import { activateWithToken } from "~/services/accounts/auth.server";

export const meta: MetaFunction = () => [{ title: `Confirm e-mail — ${PRODUCT_NAME}` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const result = await activateWithToken(params.token ?? "");
    const current = await getUser(request);
    return json({ ok: true as const, kind: result.kind, email: result.user.email, loggedIn: current?.id === result.user.id });
  } catch (error) {
    if (!isApiError(error)) throw error;
    return json({ ok: false as const, message: error.message }, { status: error.status });
  }
}

export default function ActivatePage() {
  const data = useLoaderData<typeof loader>();
  if (!data.ok) {
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
  return (
    <div className="card form-card">
      <h1>{data.kind === "verified" ? "Your e-mail is confirmed" : "Your e-mail address is changed"}</h1>
      <p>
        {data.kind === "verified" ? "Thanks! Your account is ready." : "From now on you log in with"} <strong>{data.email}</strong>.
      </p>
      {data.loggedIn ? (
        <Link className="button" to="/dashboard">
          Go to my dashboard
        </Link>
      ) : (
        <Link className="button" to={`/auth/login?email=${encodeURIComponent(data.email)}`}>
          Log In
        </Link>
      )}
    </div>
  );
}
