import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { registerInput } from "~/domain/account-rules";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, readForm } from "~/lib/form.server";
import { clientIp } from "~/lib/http.server";
import { withAnalyticsFlag } from "~/lib/redirects.server";
import { register } from "~/services/accounts/auth.server";
import { getUser } from "~/services/accounts/current-user.server";

export const meta: MetaFunction = () => [{ title: `Create Account — ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect("/dashboard");
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(await readForm(request), registerInput, async (input) => {
    const user = await register({ ...input, ip: clientIp(request) });
    const next = `/auth/verify-email?email=${encodeURIComponent(user.email)}`;
    return redirect(withAnalyticsFlag(next, "gtm_event_sign_up"));
  });
}

export default function RegisterPage() {
  const reply = useActionData<typeof action>();
  const values = reply?.values ?? {};
  return (
    <div className="card form-card">
      <h1>Create Account</h1>
      <p>Start a group video in minutes. Contributors never need an account.</p>
      <FormMessages formError={reply?.formError} />
      <Form method="post" noValidate>
        <div className="row">
          <Field
            name="firstName"
            label="First name"
            autoComplete="given-name"
            defaultValue={values.firstName}
            error={reply?.errors?.firstName}
          />
          <Field
            name="lastName"
            label="Last name"
            autoComplete="family-name"
            defaultValue={values.lastName}
            error={reply?.errors?.lastName}
          />
        </div>
        <Field
          name="email"
          label="E-mail"
          type="email"
          autoComplete="email"
          required
          defaultValue={values.email}
          error={reply?.errors?.email}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          error={reply?.errors?.password}
        />
        <SubmitButton pending="Creating your account…">Create Account</SubmitButton>
      </Form>
      <p>
        Already have an account? <Link to="/auth/login">Log In</Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
