import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { changeEmailInput, changePasswordInput, profileInput } from "~/domain/account-rules";
import { PRODUCT_NAME } from "~/domain/product";
import { db } from "~/lib/db.server";
import { handleForm, type FormReply, readForm } from "~/lib/form.server";
import { findProfileOfUser, updateProfile } from "~/models/user-profile.server";
import { changePassword, requestEmailChange } from "~/services/accounts/auth.server";
import { getAuthState, requireUser } from "~/services/accounts/current-user.server";

export const meta: MetaFunction = () => [{ title: `Account — ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await findProfileOfUser(db(), user.id);
  return json({ email: user.email, profile });
}

type Reply = FormReply & { intent?: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = String(form.get("intent"));
  const reply = (message: string) => json<Reply>({ ok: true, message, intent });
  const tagged = async (response: Promise<Response>) => {
    const res = await response;
    if (res.ok) return res;
    const body = (await res.json()) as Reply;
    return json<Reply>({ ...body, intent }, { status: res.status });
  };

  if (intent === "profile") {
    return tagged(
      handleForm(form, profileInput, async (input) => {
        const profile = await findProfileOfUser(db(), user.id);
        if (profile) await updateProfile(db(), profile.id, { ...input, marketingOptIn: input.marketingOptIn ?? false });
        return reply("Your profile is saved.");
      }),
    );
  }
  if (intent === "email") {
    return tagged(
      handleForm(form, changeEmailInput, async (input) => {
        await requestEmailChange(user, input);
        return reply(`We sent a confirmation link to ${input.email}. Your login changes once you follow it.`);
      }),
    );
  }
  if (intent === "password") {
    const { session } = await getAuthState(request);
    return tagged(
      handleForm(form, changePasswordInput, async (input) => {
        await changePassword(user, { ...input, sessionId: session.id });
        return reply("Your password is changed. Other devices were logged out.");
      }),
    );
  }
  return json<Reply>({ formError: "Unknown action." }, { status: 400 });
}

export default function ProfilePage() {
  const { email, profile } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const about = (intent: string) => (reply?.intent === intent ? reply : undefined);
  const p = about("profile");
  const e = about("email");
  const pw = about("password");
  return (
    <div className="stack">
      <h1>Account</h1>
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <FormMessages formError={p?.formError} message={p?.message} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="profile" />
          <div className="row">
            <Field
              name="firstName"
              label="First name"
              autoComplete="given-name"
              defaultValue={p?.values?.firstName ?? profile?.firstName}
              error={p?.errors?.firstName}
            />
            <Field
              name="lastName"
              label="Last name"
              autoComplete="family-name"
              defaultValue={p?.values?.lastName ?? profile?.lastName}
              error={p?.errors?.lastName}
            />
          </div>
          <div className="row">
            <Field
              name="phone"
              label="Phone"
              type="tel"
              autoComplete="tel"
              defaultValue={p?.values?.phone ?? profile?.phone ?? ""}
              error={p?.errors?.phone}
            />
            <Field
              name="timeZone"
              label="Time zone"
              placeholder="Europe/Paris"
              defaultValue={p?.values?.timeZone ?? profile?.timeZone ?? ""}
              error={p?.errors?.timeZone}
              hint="Deadlines and deliveries use it."
            />
          </div>
          <div className="field">
            <label>
              <input type="checkbox" name="marketingOptIn" defaultChecked={profile?.marketingOptIn ?? false} /> Send me ideas and offers now
              and then
            </label>
          </div>
          <SubmitButton pending="Saving…" name="intent" value="profile">
            Save profile
          </SubmitButton>
        </Form>
      </section>
      <section className="card" aria-labelledby="email-heading">
        <h2 id="email-heading">E-mail</h2>
        <p>
          You log in with <strong>{email}</strong>.
        </p>
        <FormMessages formError={e?.formError} message={e?.message} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="email" />
          <Field
            name="email"
            label="New e-mail"
            type="email"
            autoComplete="email"
            defaultValue={e?.values?.email}
            error={e?.errors?.email}
          />
          <Field name="password" label="Your password" type="password" autoComplete="current-password" error={e?.errors?.password} />
          <SubmitButton pending="Sending…" name="intent" value="email">
            Change e-mail
          </SubmitButton>
        </Form>
      </section>
      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <FormMessages formError={pw?.formError} message={pw?.message} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="password" />
          <Field
            name="currentPassword"
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={pw?.errors?.currentPassword}
          />
          <Field
            name="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters."
            error={pw?.errors?.newPassword}
          />
          <SubmitButton pending="Saving…" name="intent" value="password">
            Change password
          </SubmitButton>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
