import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { resetPasswordInput } from "~/domain/account-rules";
import { PRODUCT_NAME } from "~/domain/product";
import { db } from "~/lib/db.server";
import { handleForm, readForm } from "~/lib/form.server";
import { clientIp } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { peekToken } from "~/models/auth-token.server";
import { resetPassword } from "~/services/accounts/auth.server";

export const meta: MetaFunction = () => [{ title: `Choose a new password — ${PRODUCT_NAME}` }];

export async function loader({ params }: LoaderFunctionArgs) {
  const token = await peekToken(db(), params.token ?? "", "reset_password");
  return json({ usable: token.ok, reason: token.ok ? null : token.reason });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return handleForm(await readForm(request), resetPasswordInput, async ({ password }) => {
    const user = await resetPassword(params.token ?? "", password, clientIp(request));
    const toast = await toastHeader({ type: "success", title: "Password changed", description: "Log in with your new password." });
    return redirectWithCookies(`/auth/login?email=${encodeURIComponent(user.email)}`, [toast]);
  });
}

const REASONS = {
  unknown: "This link is not valid. Please check that you copied all of it.",
  used: "This link was already used. Each link works only once.",
  expired: "This link has expired. Links to reset a password work for 1 hour.",
} as const;

export default function ResetPasswordPage() {
  const { usable, reason } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  if (!usable && !reply) {
    return (
      <div className="card form-card">
        <h1>This link didn't work</h1>
        <p>{REASONS[reason ?? "unknown"]}</p>
        <Link className="button" to="/auth/forgot-password">
          Send me a new link
        </Link>
      </div>
    );
  }
  return (
    <div className="card form-card">
      <h1>Choose a new password</h1>
      <FormMessages formError={reply?.formError} />
      <Form method="post" noValidate>
        <Field
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          error={reply?.errors?.password}
        />
        <SubmitButton pending="Saving…">Save password</SubmitButton>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
