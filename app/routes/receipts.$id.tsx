import { json, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { asPageError } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { receiptPage } from "~/services/commerce/receipts.server";

// The address carries the receipt's key: it is not sent on to other sites, nor kept by caches. The
// header is added to the site's own policy, and a browser uses the last it reads.
export const meta: MetaFunction = () => [
  { title: `Receipt — ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

const PRIVATE_HEADERS = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
export const headers: HeadersFunction = () => PRIVATE_HEADERS;

/**
 * The receipt of a payment that has no invoice (a chip-in, trees, a postcard, a posted order:
 * docs/decisions/048): for whoever holds the link its e-mail carries, the payer's account or staff.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const token = new URL(request.url).searchParams.get("t");
    const receipt = await receiptPage(await getUser(request), uuidParam(params.id, "receipt"), token);
    return json({ receipt }, { headers: PRIVATE_HEADERS });
  } catch (error) {
    throw asPageError(error);
  }
}

export default function PaymentReceiptPage() {
  const { receipt } = useLoaderData<typeof loader>();
  return (
    <article className="receipt card stack" aria-labelledby="receipt-heading">
      <header className="receipt__head">
        <div>
          <h1 id="receipt-heading">Receipt</h1>
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
          <p>
            <strong>Paid by</strong>
            <br />
            {receipt.payer.name ? (
              <>
                {receipt.payer.name}
                <br />
              </>
            ) : null}
            {receipt.payer.email}
          </p>
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
          <tr>
            <th scope="row">
              {receipt.what}
              {receipt.headline ? `, for ${receipt.headline}` : ""}
            </th>
            <td>{receipt.totalText}</td>
          </tr>
        </tbody>
        <tfoot>
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
        Payment method: <strong>Card</strong>
      </p>
    </article>
  );
}

const RECEIPT_NOT_FOUND = {
  title: "We couldn't find this receipt",
  text: "Open it from the link in your receipt e-mail: it holds the key to it.",
};

export function ErrorBoundary() {
  return <PageError words={{ 400: RECEIPT_NOT_FOUND, 403: RECEIPT_NOT_FOUND, 404: RECEIPT_NOT_FOUND }} />;
}
