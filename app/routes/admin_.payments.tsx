import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { Pager, StaffNav, StaffSearch, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { pageParam } from "~/lib/params.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { listPaymentsForStaff } from "~/services/staff/payments.server";

export const meta: MetaFunction = () => [{ title: `Payments — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = pageParam(url);
  const { payments, hasMore } = await listPaymentsForStaff({ search: search || null, page });
  return json({ search, page, payments, hasMore }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminPaymentsPage() {
  const { search, page, payments, hasMore } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <StaffNav />
      <h1>Payments</h1>
      <StaffSearch label="E-mail or invoice number" placeholder="name@example.com or CH-000123" search={search} allPath="/admin/payments" />
      {payments.length === 0 ? (
        <p className="card empty-state">
          {search
            ? `No payment matches “${search}”.`
            : "No payments yet. Payments appear here as soon as the payment service confirms them."}
        </p>
      ) : (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Buyer</th>
              <th scope="col">Chorus</th>
              <th scope="col">Invoice</th>
              <th scope="col">Payment service</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id}>
                <td data-label="When">
                  <Link to={`/admin/payments/${payment.id}`}>{staffTime(payment.createdAt)}</Link>
                </td>
                <td data-label="Amount">
                  {payment.amount}
                  {payment.refunded ? <span className="field-hint"> ({payment.refunded} refunded)</span> : null}
                </td>
                <td data-label="Status">
                  <span className={`badge ${payment.status === "paid" ? "badge--ok" : "badge--muted"}`}>{payment.statusWords}</span>
                </td>
                <td data-label="Buyer" className="staff-table__wrap">
                  {payment.buyerEmail}
                </td>
                <td data-label="Chorus">{payment.chorus ? <a href={`/e/${payment.chorus.uuid}`}>{payment.chorus.title}</a> : "—"}</td>
                <td data-label="Invoice">{payment.invoiceNumber ?? "—"}</td>
                <td data-label="Payment service" className="staff-table__wrap">
                  <code>{payment.providerPaymentId}</code>
                  {payment.providerSessionId ? (
                    <>
                      <br />
                      <code>{payment.providerSessionId}</code>
                    </>
                  ) : null}
                  <br />
                  <span className="field-hint">{payment.provider}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} hasMore={hasMore} query={search ? { q: search } : {}} label="Pages of payments" />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
