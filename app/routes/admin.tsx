import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { StaffNav } from "~/components/admin/staff-pages";
import { RETRY_RENDER_INTENT, STOP_RENDER_INTENT, StaffRenders } from "~/components/admin/staff-renders";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { emailField } from "~/domain/account-rules";
import { isAdmin } from "~/domain/membership";
import { PRODUCT_NAME } from "~/domain/product";
import { db } from "~/lib/db.server";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { notFound } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { listSupportMessages } from "~/models/support-message.server";
import { findUserByEmail } from "~/models/user.server";
import { getAuthState, requireStaff, startUserSession } from "~/services/accounts/current-user.server";
import { requireAdminRenderJob } from "~/services/render/render-access.server";
import { cancelRender } from "~/services/render/render-jobs.server";
import { recentRenders } from "~/services/render/render-realtime.server";
import { impersonate } from "~/services/staff/impersonation.server";
import { retryRender } from "~/services/staff/render-retry.server";

export const meta: MetaFunction = () => [{ title: `Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStaff(request);
  const [messages, renders] = await Promise.all([listSupportMessages(db()), recentRenders()]);
  return json({ isAdminUser: isAdmin(user), messages, renders });
}

export async function action({ request }: ActionFunctionArgs) {
  const staff = await requireStaff(request);
  const form = await readForm(request);
  if (form.get("intent") === STOP_RENDER_INTENT) {
    // Admins only, as DELETE /api/admin/renderjobs/{id}: the same check and the same cancel.
    return handleForm(form, z.object({ jobId: z.string().uuid("There is no render job with this id.") }), async ({ jobId }) => {
      const { job } = await requireAdminRenderJob(staff, jobId);
      const stopped = await cancelRender(job);
      return json<FormReply>({
        ok: true,
        message: stopped.status === "cancelled" ? "The render was cancelled." : "The render is stopping.",
        values: { intent: STOP_RENDER_INTENT },
      });
    });
  }
  if (form.get("intent") === RETRY_RENDER_INTENT) {
    // Admins only, as Stop: a new render of the same Chorus with the same choices.
    return handleForm(form, z.object({ jobId: z.string().uuid("There is no render job with this id.") }), async ({ jobId }) => {
      const { job, admin } = await requireAdminRenderJob(staff, jobId);
      const { created } = await retryRender(admin, job);
      return json<FormReply>({
        ok: true,
        message: created ? "The render is queued again." : "This Chorus already has a render waiting or running.",
        values: { intent: RETRY_RENDER_INTENT },
      });
    });
  }
  return handleForm(form, z.object({ email: emailField }), async ({ email }) => {
    const target = await findUserByEmail(db(), email);
    if (!target) throw notFound("There is no account with this e-mail.");
    const { admin } = await impersonate(await getAuthState(request), target.id);
    return redirectWithCookies("/dashboard", [await startUserSession(request, target.id, admin.id)]);
  });
}

export default function AdminPage() {
  const { isAdminUser, messages, renders } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const stopReply = reply?.values?.intent === STOP_RENDER_INTENT || reply?.values?.intent === RETRY_RENDER_INTENT ? reply : undefined;
  return (
    <div className="stack">
      <h1>Admin</h1>
      <StaffNav admin={isAdminUser} />
      {isAdminUser ? (
        <section className="card" aria-labelledby="impersonate-heading">
          <h2 id="impersonate-heading">Act as a user</h2>
          <p>See the app exactly as they do. A bar at the top takes you back.</p>
          <FormMessages formError={stopReply ? undefined : reply?.formError} />
          <Form method="post" noValidate>
            <Field
              name="email"
              label="Their e-mail"
              type="email"
              defaultValue={reply?.values?.email}
              error={stopReply ? undefined : reply?.errors?.email}
            />
            <SubmitButton pending="Switching…">Impersonate</SubmitButton>
          </Form>
        </section>
      ) : null}
      <StaffRenders
        initial={renders}
        canStop={isAdminUser}
        reply={stopReply && { formError: stopReply.formError ?? stopReply.errors?.jobId, message: stopReply.message }}
      />
      <section aria-labelledby="messages-heading">
        <h2 id="messages-heading">Chat and feedback</h2>
        {messages.length === 0 ? (
          <p className="card empty-state">No messages yet.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>When</th>
                <th>Kind</th>
                <th>From</th>
                <th>Message</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id}>
                  <td>{new Date(m.createdAt).toLocaleString("en-GB")}</td>
                  <td>
                    <span className="badge">{m.kind}</span>
                  </td>
                  <td>
                    {m.name}
                    <br />
                    {m.email ?? "no e-mail"} {m.role ? `(${m.role})` : ""}
                  </td>
                  <td style={{ whiteSpace: "pre-wrap" }}>{m.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
