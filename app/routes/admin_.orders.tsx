import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { PRODUCT_NAME } from "~/domain/product";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { mailOrdersForStaff, refundMailOrder, retryMailOrder } from "~/services/mail-orders/fulfilment.server";

// DVDs and photo books by post (docs/decisions/029): every order past payment, failed ones first,
// with Try again (placed again under the same key) and Refund for a failed one.

export const meta: MetaFunction = () => [{ title: `Orders by post — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ orders: await mailOrdersForStaff() }, { headers: { "Cache-Control": "private, no-store" } });
}

const orderAction = z.object({
  intent: z.enum(["retry", "refund"], { error: "Choose what to do." }),
  orderId: z.uuid({ error: "Choose an order." }),
});

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  return handleForm(await readForm(request), orderAction, async ({ intent, orderId }) => {
    if (intent === "retry") {
      await retryMailOrder(admin, orderId);
      return redirectWithCookies("/admin/orders", [await toastHeader({ type: "success", title: "Sent to the service again" })]);
    }
    const { refunded } = await refundMailOrder(admin, orderId);
    return redirectWithCookies("/admin/orders", [
      await toastHeader({ type: "success", title: "Refunded", description: `${refunded} is on its way back.` }),
    ]);
  });
}

export default function AdminOrdersPage() {
  const { orders } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  return (
    <div className="stack">
      <StaffNav />
      <h1>Orders by post</h1>
      <FormMessages formError={reply?.formError} />
      {orders.length === 0 ? (
        <p className="field-hint">No DVD or photo book has been paid for yet.</p>
      ) : (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Chorus</th>
              <th scope="col">What</th>
              <th scope="col">Status</th>
              <th scope="col">Service</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.id}>
                <td data-label="When">{staffTime(order.createdAt)}</td>
                <td data-label="Chorus" className="staff-table__wrap">
                  <a href={`/e/${order.eventUuid}`}>{order.eventTitle}</a>
                  <br />
                  <span className="field-hint">{order.organiserEmail}</span>
                </td>
                <td data-label="What" className="staff-table__wrap">
                  {order.quantity} × {order.product}, {order.total}
                  <br />
                  <span className="field-hint">{order.addressLines.join(", ")}</span>
                </td>
                <td
                  data-label="Status"
                  className={order.status === "failed" ? "staff-queue-warning staff-table__wrap" : "staff-table__wrap"}
                >
                  {order.statusText}
                  {order.trackingNumber ? ` (${order.trackingNumber})` : null}
                  {order.status === "failed" && order.failure ? (
                    <>
                      <br />
                      <span className="field-hint">{order.failure}</span>
                    </>
                  ) : null}
                </td>
                <td data-label="Service">
                  {order.vendor ?? "—"}
                  {order.vendorOrderId ? <span className="field-hint"> {order.vendorOrderId}</span> : null}
                </td>
                <td data-label="Action">
                  {order.status === "failed" ? (
                    <Form method="post" className="staff-inline-form">
                      <input type="hidden" name="orderId" value={order.id} />
                      <SubmitButton name="intent" value="retry" pending="Sending…">
                        Try again
                      </SubmitButton>{" "}
                      <SubmitButton name="intent" value="refund" pending="Refunding…">
                        Refund {order.total}
                      </SubmitButton>
                    </Form>
                  ) : (
                    "—"
                  )}
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
