import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { StaffActions, StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { PRODUCT_NAME } from "~/domain/product";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { asPageError } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getAuthState, requireAdmin, startUserSession } from "~/services/accounts/current-user.server";
import { impersonate } from "~/services/staff/impersonation.server";
import {
  changeRole,
  disableAccount,
  enableAccount,
  personForStaff,
  resendVerificationFor,
  roleInput,
} from "~/services/staff/people.server";

export const meta: MetaFunction = () => [{ title: `Person — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  try {
    const detail = await personForStaff(params.id);
    return json({ ...detail, isSelf: detail.person.id === admin.id }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    throw asPageError(error);
  }
}

const intentInput = z.object({ intent: z.enum(["role", "resend-verification", "disable", "enable", "impersonate"]) });

/** Every action on a person answers with a redirect back here and a toast, so the page works without JavaScript. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const back = async (title: string, description?: string) =>
    redirectWithCookies(`/admin/people/${params.id}`, [await toastHeader({ type: "success", title, description })]);
  return handleForm(form, intentInput, async ({ intent }) => {
    switch (intent) {
      case "role":
        return handleForm(form, roleInput, async ({ role }) => {
          const person = await changeRole(admin, params.id, role);
          return back("Role changed", `${person.email} is now ${person.role === "user" ? "a user" : `an ${person.role}`}.`);
        });
      case "resend-verification": {
        const person = await resendVerificationFor(admin, params.id);
        return back("Confirmation e-mail sent", `A new link is on its way to ${person.email}.`);
      }
      case "disable": {
        const person = await disableAccount(admin, params.id);
        return back("Account disabled", `${person.email} is logged out everywhere and cannot log in.`);
      }
      case "enable": {
        const person = await enableAccount(admin, params.id);
        return back("Account enabled", `${person.email} can log in again.`);
      }
      case "impersonate": {
        const { admin: actor, target } = await impersonate(await getAuthState(request), uuidParam(params.id, "person"));
        return redirectWithCookies("/dashboard", [await startUserSession(request, target.id, actor.id)]);
      }
    }
  });
}

export default function AdminPersonPage() {
  const { person, choruses, payments, actions, isSelf } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  return (
    <div className="stack">
      <StaffNav />
      <p>
        <Link to="/admin/people">← All people</Link>
      </p>
      <h1 className="staff-table__wrap">
        {person.email} {person.disabled ? <span className="badge badge--muted">Disabled</span> : null}
      </h1>
      <FormMessages formError={reply?.formError ?? reply?.errors?.role ?? reply?.errors?.intent} />
      <section className="card" aria-labelledby="account-heading">
        <h2 id="account-heading">Account</h2>
        <dl className="staff-facts">
          <dt>Name</dt>
          <dd>{person.name || "—"}</dd>
          <dt>Joined</dt>
          <dd>{staffTime(person.createdAt)}</dd>
          <dt>E-mail</dt>
          <dd>{person.verified ? "Confirmed" : "Not confirmed yet"}</dd>
          <dt>Membership</dt>
          <dd>{person.membership}</dd>
          <dt>Role</dt>
          <dd>{person.role}</dd>
          {person.disabledAt ? (
            <>
              <dt>Disabled</dt>
              <dd>{staffTime(person.disabledAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>

      {isSelf ? (
        <p className="card field-hint">This is your own account: another administrator changes its role or disables it.</p>
      ) : (
        <section className="card stack" aria-labelledby="actions-heading">
          <h2 id="actions-heading">Actions</h2>
          <Form method="post" noValidate className="staff-search">
            <input type="hidden" name="intent" value="role" />
            <div className="field">
              <label htmlFor="role">Role</label>
              <select id="role" name="role" defaultValue={person.role}>
                <option value="user">User</option>
                <option value="editor">Editor (moderates reports)</option>
                <option value="admin">Administrator</option>
              </select>
            </div>
            <SubmitButton pending="Changing…">Change role</SubmitButton>
          </Form>
          {person.verified ? null : (
            <Form method="post">
              <input type="hidden" name="intent" value="resend-verification" />
              <SubmitButton pending="Sending…">Send the confirmation e-mail again</SubmitButton>
            </Form>
          )}
          {person.disabled ? (
            <Form method="post">
              <input type="hidden" name="intent" value="enable" />
              <SubmitButton pending="Enabling…">Enable the account</SubmitButton>
            </Form>
          ) : (
            <>
              <Form method="post">
                <input type="hidden" name="intent" value="impersonate" />
                <SubmitButton pending="Switching…">Impersonate</SubmitButton>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="disable" />
                <p className="field-hint">Disabling logs them out everywhere at once; they cannot log in until enabled.</p>
                <SubmitButton pending="Disabling…">Disable the account</SubmitButton>
              </Form>
            </>
          )}
        </section>
      )}

      <section className="card" aria-labelledby="choruses-heading">
        <h2 id="choruses-heading">Choruses they organise</h2>
        {choruses.length === 0 ? (
          <p className="field-hint">None.</p>
        ) : (
          <ul className="staff-actions">
            {choruses.map((chorus) => (
              <li key={chorus.id}>
                <a href={`/e/${chorus.uuid}`}>{chorus.title}</a> <span className="field-hint">({chorus.code})</span>{" "}
                {chorus.paid ? <span className="badge badge--ok">Paid</span> : <span className="badge badge--muted">Not paid</span>}{" "}
                {chorus.published ? <span className="badge">Published</span> : null}{" "}
                {chorus.takenDown ? <span className="badge badge--muted">Taken down</span> : null}{" "}
                {chorus.deleted ? <span className="badge badge--muted">Deleted</span> : null}{" "}
                <Link to={`/admin/choruses?q=${chorus.uuid}`}>Renders</Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="payments-heading">
        <h2 id="payments-heading">Payments</h2>
        {payments.length === 0 ? (
          <p className="field-hint">None.</p>
        ) : (
          <ul className="staff-actions">
            {payments.map((payment) => (
              <li key={payment.id}>
                <Link to={`/admin/payments/${payment.id}`}>
                  {payment.amount}, {staffTime(payment.createdAt)}
                </Link>{" "}
                <span className="field-hint">
                  {payment.status.replace("_", " ")}
                  {payment.chorus ? ` — ${payment.chorus.title}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <StaffActions actions={actions} empty="No staff action on this account yet." />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
