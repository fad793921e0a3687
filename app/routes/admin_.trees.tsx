import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { listTreesForStaff } from "~/services/staff/trees.server";

export const meta: MetaFunction = () => [{ title: `Trees — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ trees: await listTreesForStaff() }, { headers: { "Cache-Control": "private, no-store" } });
}

const BADGE = {
  planted: "badge--ok",
  refunded: "badge--muted",
  failed: "badge--danger",
  paid: "badge--muted",
  pending: "badge--muted",
  abandoned: "badge--muted",
};

/** Staff: the latest trees paid for; a planting that failed for good says why, and its refund. */
export default function AdminTreesPage() {
  const { trees } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <StaffNav />
      <h1>Trees</h1>
      {trees.length === 0 ? (
        <p className="card empty-state">No trees yet. Trees appear here once their payment is confirmed.</p>
      ) : (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Trees</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Contributor</th>
              <th scope="col">Chorus</th>
            </tr>
          </thead>
          <tbody>
            {trees.map((t) => (
              <tr key={t.id} data-tree-contribution={t.id}>
                <td data-label="When">{staffTime(t.createdAt)}</td>
                <td data-label="Trees">{t.quantity}</td>
                <td data-label="Amount">
                  {t.amount}
                  {t.refunded ? <span className="field-hint"> ({t.refunded} refunded)</span> : null}
                </td>
                <td data-label="Status" className="staff-table__wrap">
                  <span className={`badge ${BADGE[t.status]}`}>{t.statusWords}</span>
                  {t.failure ? <p className="form-error">{t.failure}</p> : null}
                  {t.plantingId ? <code>{t.plantingId}</code> : null}
                </td>
                <td data-label="Contributor" className="staff-table__wrap">
                  {t.email}
                </td>
                <td data-label="Chorus">
                  <a href={`/e/${t.eventUuid}`}>Open</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
