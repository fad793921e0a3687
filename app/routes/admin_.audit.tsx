import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { Pager, StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { isStaffActionKind } from "~/domain/staff-actions";
import { pageParam } from "~/lib/params.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { auditLog } from "~/services/staff/audit-log.server";

export const meta: MetaFunction = () => [{ title: `Audit log — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// Every staff action, newest first: administrators only, since it names refunds and their amounts.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const by = (url.searchParams.get("by") ?? "").trim().slice(0, 320);
  const kindParam = url.searchParams.get("kind") ?? "";
  const kind = isStaffActionKind(kindParam) ? kindParam : "";
  const page = pageParam(url);
  const log = await auditLog({ actorEmail: by || undefined, action: kind || undefined }, page);
  return json({ by, kind, page, ...log }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminAuditPage() {
  const { by, kind, page, entries, hasMore, actors, kinds } = useLoaderData<typeof loader>();
  const query: Record<string, string> = { ...(by ? { by } : {}), ...(kind ? { kind } : {}) };
  return (
    <div className="stack">
      <StaffNav />
      <h1>Audit log</h1>
      <Form method="get" className="staff-search" role="search" aria-label="Filter the audit log">
        <div className="field">
          <label htmlFor="by">Staff member</label>
          <select id="by" name="by" defaultValue={by}>
            <option value="">Everyone</option>
            {actors.map((email) => (
              <option key={email} value={email}>
                {email}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="kind">Kind</label>
          <select id="kind" name="kind" defaultValue={kind}>
            <option value="">Every kind</option>
            {kinds.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <button className="button" type="submit">
          Filter
        </button>
        {by || kind ? <Link to="/admin/audit">Show all</Link> : null}
      </Form>
      {entries.length === 0 ? (
        <p className="card empty-state">{by || kind ? "No staff action matches." : "No staff actions yet."}</p>
      ) : (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">On</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td data-label="When">{staffTime(entry.at)}</td>
                <td data-label="Who">{entry.by}</td>
                <td data-label="What">{entry.what}</td>
                <td data-label="On">{entry.subjectLink ? <a href={entry.subjectLink}>{entry.subject}</a> : entry.subject}</td>
                <td data-label="Details" className="audit__details">
                  {entry.details}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} hasMore={hasMore} query={query} label="Pages of the audit log" />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
