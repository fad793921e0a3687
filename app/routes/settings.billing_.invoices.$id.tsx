import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { asPageError } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { requireUser } from "~/services/accounts/current-user.server";
import { receiptOf } from "~/services/commerce/invoices.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Receipt ${data.receipt.number} — ${PRODUCT_NAME}` : `Receipt — ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/** One invoice as a receipt that prints on its own: its owner's, or anyone's for staff. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const receipt = await receiptOf(user, uuidParam(params.id, "receipt"));
    return json({ receipt }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    throw asPageError(error);
  }
}

export default function ReceiptPage() {
  const { receipt } = useLoaderData<typeof loader>();
  return (
    <article className="receipt card stack" aria-labelledby="receipt-heading">
      <p className="receipt__back">
        <Link to="/settings/billing">← Billing</Link>
      </p>
      <header className="receipt__head">
        <div>
          <h1 id="receipt-heading">Receipt {receipt.number}</h1>
          <p>
            {receipt.date} · <span className="receipt__status">{receipt.statusLabel}</span>
          </p>
        </div>
        <div className="receipt__parties">
          <p>
            <strong>From</strong>
            <br />
            {receipt.seller.name}
            <br />
            {receipt.seller.website}
          </p>
          {receipt.buyerEmail ? (
            <p>
              <strong>To</strong>
              <br />
              {receipt.buyerEmail}
            </p>
          ) : null}
        </div>
      </header>
      <table className="receipt__lines">
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {receipt.lineItems.map((line) => (
            <tr key={line.key}>
              <th scope="row">{line.name}</th>
              <td>{line.amount}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Subtotal</th>
            <td>{receipt.subtotalText}</td>
          </tr>
          {receipt.discountText ? (
            <tr>
              <th scope="row">Discount{receipt.promoCode ? ` (${receipt.promoCode})` : ""}</th>
              <td>{receipt.discountText}</td>
            </tr>
          ) : null}
          {receipt.taxText ? (
            <tr>
              <th scope="row">
                {receipt.taxName}
                {receipt.country ? `, ${receipt.country}` : ""}
              </th>
              <td>{receipt.taxText}</td>
            </tr>
          ) : null}
          <tr className="receipt__total">
            <th scope="row">Total</th>
            <td>{receipt.totalText}</td>
          </tr>
          {receipt.refundedText ? (
            <tr>
              <th scope="row">Refunded</th>
              <td>−{receipt.refundedText}</td>
            </tr>
          ) : null}
        </tfoot>
      </table>
      <p>
        Payment method: <strong>{receipt.paymentMethod}</strong>
      </p>
      {receipt.eventUuid ? (
        <p className="receipt__screen-only">
          <Link to={`/e/${receipt.eventUuid}`}>Open the {PRODUCT_NAME}</Link>
        </p>
      ) : null}
    </article>
  );
}

const RECEIPT_NOT_FOUND = {
  title: "We couldn't find this receipt",
  text: (
    <>
      It may belong to another account. Your own receipts are on the <Link to="/settings/billing">billing page</Link>.
    </>
  ),
};

export function ErrorBoundary() {
  return (
    <PageError
      words={{ 400: RECEIPT_NOT_FOUND, 403: RECEIPT_NOT_FOUND, 404: RECEIPT_NOT_FOUND }}
      back={{ to: "/settings/billing", label: "Billing" }}
    />
  );
}
