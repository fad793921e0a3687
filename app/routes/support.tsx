import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { PRODUCT_NAME } from "~/domain/product";
import { db } from "~/lib/db.server";
import { handleForm, readForm, type FormReply } from "~/lib/form.server";
import { insertSupportMessage } from "~/models/support-message.server";
import { getUser } from "~/services/accounts/current-user.server";

export const meta: MetaFunction = () => [{ title: `Support — ${PRODUCT_NAME}` }];

const supportInput = z.object({
  kind: z.enum(["chat", "feedback"]).catch("chat"),
  email: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.email("Enter a valid e-mail address so we can reply.").optional()),
  message: z.string().trim().min(1, "Write a message first.").max(4000, "Keep it under 4,000 characters."),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const kind = new URL(request.url).searchParams.get("kind") === "feedback" ? "feedback" : "chat";
  return json({ kind, loggedIn: !!(await getUser(request)) });
}

/** Used by the page form (no JavaScript) and by the floating widget (fetcher). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await getUser(request);
  return handleForm(await readForm(request), supportInput, async (input) => {
    await insertSupportMessage(db(), {
      kind: input.kind,
      userId: user?.id ?? null,
      email: user?.email ?? input.email ?? null,
      role: user?.role ?? null,
      message: input.message,
      pageUrl: request.headers.get("referer"),
    });
    return json<FormReply>({ ok: true });
  });
}

export default function SupportPage() {
  const { kind, loggedIn } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  if (reply?.ok) {
    return (
      <div className="card form-card">
        <h1>Thank you!</h1>
        <p>{kind === "chat" ? "We got your message and will reply by e-mail as soon as we can." : "We read every idea."}</p>
      </div>
    );
  }
  return (
    <div className="card form-card">
      <h1>{kind === "chat" ? "Chat with us" : "Share an idea"}</h1>
      {/* The message's own error shows under it; any other (the e-mail) is said above the form too. */}
      <FormMessages formError={reply?.errors && !reply.errors.message ? Object.values(reply.errors)[0] : undefined} />
      <Form method="post" noValidate>
        <input type="hidden" name="kind" value={kind} />
        {loggedIn ? null : (
          <Field name="email" label="Your e-mail (so we can reply)" type="email" autoComplete="email" error={reply?.errors?.email} />
        )}
        <div className="field">
          <label htmlFor="message">{kind === "chat" ? "How can we help?" : "What would make Chorus better?"}</label>
          <textarea
            id="message"
            name="message"
            rows={6}
            maxLength={4000}
            defaultValue={reply?.values?.message}
            aria-invalid={reply?.errors?.message ? true : undefined}
          />
          {reply?.errors?.message ? <p className="field-error">{reply.errors.message}</p> : null}
        </div>
        <SubmitButton pending="Sending…">Send</SubmitButton>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
