import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { LiveReports } from "~/components/admin/live-reports";
import { StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { isAdmin } from "~/domain/membership";
import { PRODUCT_NAME } from "~/domain/product";
import { moderatedEventInput, takeDownInput } from "~/domain/staff-input";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { requireStaff } from "~/services/accounts/current-user.server";
import { dismissReports, reportQueue, restoreEvent, takeDownEvent } from "~/services/staff/moderation.server";

export const meta: MetaFunction = () => [{ title: `Reports — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// Reports of Chorus pages, for administrators and editors alike (spec §6: staff have edit rights).

export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  return json({ isAdminUser: isAdmin(staff), ...(await reportQueue()) }, { headers: { "Cache-Control": "private, no-store" } });
}

const intentInput = z.object({ intent: z.enum(["dismiss", "take-down", "restore"], { error: "Choose what to do." }) });

/** Dismiss, Take down or Restore one Chorus; each comes back to the queue with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const staff = await requireStaff(request);
  const form = await readForm(request);
  const back = async (title: string) => redirectWithCookies("/admin/reports", [await toastHeader({ type: "success", title })]);
  const intent = intentInput.safeParse({ intent: form.get("intent") });
  if (!intent.success) return handleForm(form, intentInput, async () => back(""));
  switch (intent.data.intent) {
    case "dismiss":
      return handleForm(form, moderatedEventInput, async ({ eventId }) => {
        const { event, dismissed } = await dismissReports(staff, eventId);
        return back(`${dismissed === 1 ? "The report" : `${dismissed} reports`} on ${event.eventId} dismissed`);
      });
    case "take-down":
      return handleForm(form, takeDownInput, async (input) => {
        const event = await takeDownEvent(staff, input);
        return back(`${event.eventId} is taken down; its organiser is being told why`);
      });
    case "restore":
      return handleForm(form, moderatedEventInput, async ({ eventId }) => {
        const event = await restoreEvent(staff, eventId);
        return back(`${event.eventId} is back`);
      });
  }
}

export default function AdminReportsPage() {
  const { isAdminUser, reported, takenDown } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const failedOn = reply?.values?.eventId;
  const failure = reply?.formError ?? reply?.errors?.intent ?? reply?.errors?.eventId;
  return (
    <div className="stack">
      <StaffNav admin={isAdminUser} />
      <h1>Reports</h1>
      <LiveReports />
      <FormMessages formError={failure} />
      <section aria-labelledby="open-heading" className="stack">
        <h2 id="open-heading">Open</h2>
        {reported.length === 0 ? (
          <p className="card empty-state">No open reports.</p>
        ) : (
          reported.map((chorus) => (
            <article key={chorus.eventId} className="card report" aria-labelledby={`report-${chorus.eventId}`}>
              <h3 id={`report-${chorus.eventId}`}>
                <a href={`/e/${chorus.uuid}`}>{chorus.title || `${PRODUCT_NAME} ${chorus.code}`}</a>{" "}
                <span className="badge">
                  {chorus.reports.length} {chorus.reports.length === 1 ? "report" : "reports"}
                </span>
                {chorus.takenDown ? <span className="badge badge--muted">taken down</span> : null}
              </h3>
              <p className="field-hint">
                {chorus.code} · <a href={`/e/${chorus.uuid}`}>Open the page</a> (log out, or use a private window, to see it exactly as the
                public does)
              </p>
              <ol className="staff-actions">
                {chorus.reports.map((report) => (
                  <li key={report.id}>
                    <strong>{report.reason || "No reason given."}</strong>
                    <span className="field-hint">
                      {" "}
                      — {report.reporter}, {staffTime(report.at)}
                    </span>
                  </li>
                ))}
              </ol>
              <div className="report__decisions">
                <Form method="post" className="staff-inline-form">
                  <input type="hidden" name="eventId" value={chorus.eventId} />
                  <SubmitButton name="intent" value="dismiss" pending="Dismissing…">
                    Dismiss
                  </SubmitButton>
                </Form>
                {chorus.takenDown ? null : (
                  <Form method="post" className="report__take-down">
                    <input type="hidden" name="eventId" value={chorus.eventId} />
                    <div className="field">
                      <label htmlFor={`reason-${chorus.eventId}`}>Why (the organiser is e-mailed this)</label>
                      <textarea
                        id={`reason-${chorus.eventId}`}
                        name="reason"
                        rows={2}
                        maxLength={1000}
                        defaultValue={failedOn === chorus.eventId ? reply?.values?.reason : undefined}
                        aria-invalid={failedOn === chorus.eventId && reply?.errors?.reason ? true : undefined}
                        aria-describedby={
                          failedOn === chorus.eventId && reply?.errors?.reason ? `reason-${chorus.eventId}-error` : undefined
                        }
                      />
                      {failedOn === chorus.eventId && reply?.errors?.reason ? (
                        <p className="field-error" id={`reason-${chorus.eventId}-error`}>
                          {reply.errors.reason}
                        </p>
                      ) : null}
                    </div>
                    <SubmitButton name="intent" value="take-down" pending="Taking down…">
                      Take down
                    </SubmitButton>
                  </Form>
                )}
              </div>
            </article>
          ))
        )}
      </section>
      <section aria-labelledby="taken-down-heading" className="stack">
        <h2 id="taken-down-heading">Taken down</h2>
        {takenDown.length === 0 ? (
          <p className="card empty-state">Nothing is taken down.</p>
        ) : (
          <table className="table staff-table">
            <thead>
              <tr>
                <th scope="col">{PRODUCT_NAME}</th>
                <th scope="col">Since</th>
                <th scope="col">Why</th>
                <th scope="col">
                  <span className="visually-hidden">Restore</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {takenDown.map((chorus) => (
                <tr key={chorus.eventId}>
                  <td data-label={PRODUCT_NAME}>
                    <a href={`/e/${chorus.uuid}`}>{chorus.title || chorus.code}</a>
                  </td>
                  <td data-label="Since">{staffTime(chorus.at)}</td>
                  <td data-label="Why" className="staff-table__reason">
                    {chorus.reason}
                  </td>
                  <td>
                    <Form method="post" className="staff-inline-form">
                      <input type="hidden" name="eventId" value={chorus.eventId} />
                      <SubmitButton name="intent" value="restore" pending="Restoring…">
                        Restore
                      </SubmitButton>
                    </Form>
                  </td>
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
