import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { queueHealth } from "~/services/staff/queue-health.server";

export const meta: MetaFunction = () => [{ title: `Queues — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(await queueHealth(), { headers: { "Cache-Control": "private, no-store" } });
}

/** "45 s", "12 min", "3 h 05 min". */
function age(seconds: number | null) {
  if (seconds === null) return "—";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

export default function AdminQueuesPage() {
  const { checkedAt, queues } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <StaffNav />
      <h1>Queue health</h1>
      <p className="field-hint">
        Every kind of background job, as of {staffTime(checkedAt)}. <Link to="/admin/queues">Refresh</Link>
      </p>
      <table className="table staff-table">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Waiting</th>
            <th scope="col">Running</th>
            <th scope="col">Failed (24 h)</th>
            <th scope="col">Oldest waiting</th>
          </tr>
        </thead>
        <tbody>
          {queues.map((queue) => (
            <tr key={queue.name}>
              <td data-label="Job" className="staff-table__wrap">
                <code>{queue.name}</code>
                {queue.schedule ? <span className="field-hint"> (on schedule {queue.schedule})</span> : null}
              </td>
              <td data-label="Waiting">{queue.waiting}</td>
              <td data-label="Running">{queue.active}</td>
              <td data-label="Failed (24 h)" className={queue.failedLastDay > 0 ? "staff-queue-warning" : undefined}>
                {queue.failedLastDay}
              </td>
              <td data-label="Oldest waiting" className={queue.heldUp ? "staff-queue-warning" : undefined}>
                {age(queue.oldestWaitingSeconds)}
                {queue.heldUp ? " (held up)" : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
