import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { emailOnlyInput } from "~/domain/account-rules";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, type FormReply, readForm } from "~/lib/form.server";
import { clientIp } from "~/lib/http.server";
import { resendVerification } from "~/services/accounts/auth.server";
import { outboxReadableBy } from "~/services/messaging/mail.server";

export const meta: MetaFunction = () => [{ title: `Confirm your e-mail — ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ email: new URL(request.url).searchParams.get("email") ?? "", outbox: outboxReadableBy(clientIp(request)) });
}

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(await readForm(request), emailOnlyInput, async ({ email }) => {
    await resendVerification(email, clientIp(request));
    return json<FormReply>({ ok: true, message: `If ${email} is waiting for confirmation, a new link is on its way.`, values: { email } });
  });
}

export default function VerifyEmailPage() {
  const { email, outbox } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="card form-card">
      <h1>Check your inbox</h1>
      <p>
        {email ? (
          <>
            We sent a confirmation link to <strong>{email}</strong>.
          </>
        ) : (
          "We sent you a confirmation link."
        )}{" "}
        Follow it to activate your account, then log in.
      </p>
      {outbox ? (
        <p className="form-note">
          No mail server is set up on this machine: the message is in the <Link to="/dev/outbox">local outbox</Link>.
        </p>
      ) : null}
      <h2>Didn't get it?</h2>
      <FormMessages formError={reply?.formError} message={reply?.message} />
      <Form method="post" noValidate>
        <Field
          name="email"
          label="E-mail"
          type="email"
          autoComplete="email"
          defaultValue={reply?.values?.email ?? email}
          error={reply?.errors?.email}
        />
        <SubmitButton pending="Sending…">Send a new link</SubmitButton>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
