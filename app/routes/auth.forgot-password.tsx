import { json, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { emailOnlyInput } from "~/domain/account-rules";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, type FormReply, readForm } from "~/lib/form.server";
import { clientIp } from "~/lib/http.server";
import { requestPasswordReset } from "~/services/accounts/auth.server";

export const meta: MetaFunction = () => [{ title: `Forgot password — ${PRODUCT_NAME}` }];

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(await readForm(request), emailOnlyInput, async ({ email }) => {
    await requestPasswordReset(email, clientIp(request));
    return json<FormReply>({
      ok: true,
      message: `If an account uses ${email}, we sent it a link to choose a new password. It works for 1 hour.`,
      values: { email },
    });
  });
}

export default function ForgotPasswordPage() {
  const reply = useActionData<typeof action>();
  return (
    <div className="card form-card">
      <h1>Forgot your password?</h1>
      <p>Enter your e-mail and we'll send you a link to choose a new one.</p>
      <FormMessages formError={reply?.formError} message={reply?.message} />
      <Form method="post" noValidate>
        <Field
          name="email"
          label="E-mail"
          type="email"
          autoComplete="email"
          required
          defaultValue={reply?.values?.email}
          error={reply?.errors?.email}
        />
        <SubmitButton pending="Sending…">Send reset link</SubmitButton>
      </Form>
      <p>
        <Link to="/auth/login">Back to Log In</Link>
      </p>
    </div>
  );
}
