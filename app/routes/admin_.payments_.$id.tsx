import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { StaffActions, StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages, TextAreaField } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { refundInput } from "~/domain/commerce/staff-input";
import { PRODUCT_NAME } from "~/domain/product";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { asPageError } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { paymentDetailForStaff, requestRefund } from "~/services/staff/payments.server";

export const meta: MetaFunction = () => [{ title: `Payment — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  try {
    const detail = await paymentDetailForStaff(uuidParam(params.id, "payment"));
    return json(detail, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    throw asPageError(error);
  }
}

/** The Refund form: asks the payment service, and says so; the payment changes when its webhook comes. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  return handleForm(form, refundInput, async (input) => {
    const id = uuidParam(params.id, "payment");
    const refund = await requestRefund(admin, id, input);
    const toast = await toastHeader({
      type: "success",
      title: "Refund requested",
      description: `${refund.amount} is on its way back to the buyer. The payment shows it once the payment service confirms.`,
    });
    return redirectWithCookies(`/admin/payments/${id}`, [toast]);
  });
}

export default function AdminPaymentPage() {
  const { payment, invoice, awaitingConfirmation, actions } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const refundRequests = actions.filter((a) => a.refundAmount !== null);
  return (
    <div className="stack">
      <StaffNav />
      <p>
        <Link to="/admin/payments">← All payments</Link>
      </p>
      <h1>
        Payment of {payment.amount}{" "}
        <span className={`badge ${payment.status === "paid" ? "badge--ok" : "badge--muted"}`}>{payment.statusWords}</span>
      </h1>
      <section className="card" aria-labelledby="payment-heading">
        <h2 id="payment-heading">Payment</h2>
        <dl className="staff-facts">
          <dt>When</dt>
          <dd>{staffTime(payment.createdAt)}</dd>
          <dt>Buyer</dt>
          <dd>{payment.buyerEmail}</dd>
          <dt>Chorus</dt>
          <dd>
            {payment.chorus ? (
              <>
                <a href={`/e/${payment.chorus.uuid}`}>{payment.chorus.title}</a> ({payment.chorus.code}) —{" "}
                {payment.chorusPaid ? "paid: delivery and download are open" : "not paid: delivery and download are locked"}
              </>
            ) : (
              "None (a second payment for a cart already settled)"
            )}
          </dd>
          <dt>Payment service</dt>
          <dd>{payment.provider}</dd>
          <dt>Payment id</dt>
          <dd>
            <code>{payment.providerPaymentId}</code>
          </dd>
          {payment.providerSessionId ? (
            <>
              <dt>Checkout session</dt>
              <dd>
                <code>{payment.providerSessionId}</code>
              </dd>
            </>
          ) : null}
          {payment.providerCustomerId ? (
            <>
              <dt>Customer</dt>
              <dd>
                <code>{payment.providerCustomerId}</code>
              </dd>
            </>
          ) : null}
        </dl>
      </section>

      <section className="card" aria-labelledby="invoice-heading">
        <h2 id="invoice-heading">{invoice ? `Invoice ${invoice.number}` : "Invoice"}</h2>
        {invoice ? (
          <>
            <p className="field-hint">
              Issued {staffTime(invoice.paidAt)}
              {invoice.country ? `, billed to ${invoice.country}` : ""}
            </p>
            <table className="table staff-table">
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Qty</th>
                  <th scope="col">Price</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Net</th>
                </tr>
              </thead>
              <tbody>
                {invoice.lines.map((line) => (
                  <tr key={line.key}>
                    <td data-label="Item">
                      {line.name}
                      {line.included ? <span className="field-hint"> (included: {line.included})</span> : null}
                    </td>
                    <td data-label="Qty">{line.quantity}</td>
                    <td data-label="Price">{line.amount}</td>
                    <td data-label="Discount">{line.discount ?? "—"}</td>
                    <td data-label="Net">{line.net}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl className="staff-facts">
              <dt>Subtotal</dt>
              <dd>{invoice.subtotal}</dd>
              {invoice.discount ? (
                <>
                  <dt>Discount{invoice.promoCode ? ` (${invoice.promoCode})` : ""}</dt>
                  <dd>−{invoice.discount}</dd>
                </>
              ) : null}
              {invoice.tax ? (
                <>
                  <dt>{invoice.taxLabel}</dt>
                  <dd>{invoice.tax}</dd>
                </>
              ) : null}
              <dt>Total</dt>
              <dd>
                <strong>{invoice.total}</strong>
              </dd>
            </dl>
          </>
        ) : (
          <p className="field-hint">No invoice was issued for this payment.</p>
        )}
      </section>

      <section className="card" aria-labelledby="refunds-heading">
        <h2 id="refunds-heading">Refunds</h2>
        <p>
          {payment.refunded
            ? `${payment.refunded} refunded so far, as confirmed by the payment service; ${payment.left} is left.`
            : "Nothing refunded so far."}
        </p>
        {awaitingConfirmation ? (
          <p className="form-note" role="status">
            Refund requested: waiting for the payment service to confirm it. This page shows it once it has.
          </p>
        ) : null}
        {refundRequests.length > 0 ? (
          <ul className="staff-actions">
            {refundRequests.map((r) => (
              <li key={r.id}>
                {r.what} by {r.by}, {staffTime(r.at)}
                {r.reason ? ` — ${r.reason}` : null}
              </li>
            ))}
          </ul>
        ) : null}
        {payment.canRefund && !payment.takenElsewhere ? (
          <Form method="post" noValidate className="staff-refund">
            <h3>Refund</h3>
            <FormMessages formError={reply?.formError && !reply.errors?.amount ? reply.formError : undefined} />
            <fieldset className="staff-choices">
              <legend>How much</legend>
              <label>
                <input type="radio" name="scope" value="whole" defaultChecked={(reply?.values?.scope ?? "whole") === "whole"} /> All that is
                left: {payment.left}
              </label>
              <label>
                <input type="radio" name="scope" value="part" defaultChecked={reply?.values?.scope === "part"} /> Part of it
              </label>
            </fieldset>
            <Field
              name="amount"
              label={`Amount to refund, in ${payment.currency.toUpperCase()}`}
              inputMode="decimal"
              hint={`For part of it only: at most ${payment.leftInput}.`}
              defaultValue={reply?.values?.amount}
              error={reply?.errors?.amount}
            />
            <TextAreaField
              name="reason"
              label="Why"
              hint="Kept with the refund, for the record."
              rows={2}
              defaultValue={reply?.values?.reason}
              error={reply?.errors?.reason}
            />
            <SubmitButton pending="Asking the payment service…">Refund</SubmitButton>
          </Form>
        ) : payment.takenElsewhere ? (
          <p className="field-hint">This payment was taken by another payment service than the one this server uses: refund it there.</p>
        ) : (
          <p className="field-hint">This payment has been refunded in full.</p>
        )}
      </section>
      <StaffActions actions={actions} empty="No staff action on this payment yet." />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
