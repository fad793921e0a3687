import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { PRODUCT_NAME } from "~/domain/product";
import type { FormReply } from "~/lib/form.server";
import { readForm } from "~/lib/form.server";
import { isApiError } from "~/lib/http.server";
import { redirectWithCookies, withAnalyticsFlag } from "~/lib/redirects.server";
import { asFormRequest, authenticator } from "~/services/accounts/authenticator.server";
import { getUser, safeRedirect, startUserSession } from "~/services/accounts/current-user.server";

export const meta: MetaFunction = () => [
  { title: `Log In — ${PRODUCT_NAME}` },
  { name: "description", content: `Log in to ${PRODUCT_NAME} to see your group video gifts, invite people and publish the video.` },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getUser(request)) throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  return json({ redirectTo: safeRedirect(url.searchParams.get("redirectTo")), email: url.searchParams.get("email") ?? "" });
}

export async function action({ request }: ActionFunctionArgs) {
  // Read once, bounded (readForm): the form strategy is handed a request made of what was read.
  const form = await readForm(request);
  const redirectTo = safeRedirect(form.get("redirectTo"));
  const email = String(form.get("email") ?? "");
  try {
    const user = await authenticator().authenticate("form", await asFormRequest(request, Object.fromEntries(form)));
    const cookie = await startUserSession(request, user.id);
    return redirectWithCookies(withAnalyticsFlag(redirectTo, "gtm_event_login"), [cookie]);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return json<FormReply & { unverified?: boolean }>(
      { formError: error.message, errors: error.fields, values: { email }, unverified: error.code === "EMAIL_NOT_VERIFIED" },
      { status: error.status, headers: error.headers },
    );
  }
}

export default function LoginPage() {
  const { redirectTo, email } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="card form-card">
      <h1>Log In</h1>
      <FormMessages formError={reply?.formError} />
      {reply?.unverified ? (
        <p className="form-note">
          We just sent a new confirmation link to {reply.values?.email}. <Link to="/auth/verify-email">Need help?</Link>
        </p>
      ) : null}
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          name="email"
          label="E-mail"
          type="email"
          autoComplete="email"
          required
          defaultValue={reply?.values?.email ?? email}
          error={reply?.errors?.email}
        />
        <Field name="password" label="Password" type="password" autoComplete="current-password" required error={reply?.errors?.password} />
        <SubmitButton pending="Logging in…">Log In</SubmitButton>
      </Form>
      <p>
        <Link to="/auth/forgot-password">Forgot your password?</Link>
      </p>
      <p>
        New to {PRODUCT_NAME}?{" "}
        <Link to={`/auth/register${redirectTo !== "/dashboard" ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>
          Create Account
        </Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
