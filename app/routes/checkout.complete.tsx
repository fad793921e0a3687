import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { PageError, saidWithHint } from "~/components/shell/page-error";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { isApiError } from "~/lib/http.server";
import { checkoutPayerOf } from "~/services/payments/checkout-cookie.server";
import { checkoutReturn } from "~/services/payments/checkout-return.server";

export const meta: MetaFunction = () => [{ title: `Your payment — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** Seconds between two looks while the payment is being confirmed. */
const RECHECK_SECONDS = 2;

/** Where the payment page sends the payer back: paid once our webhook has taken the payment; a 404 for anyone else. */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    return json({ payment: await checkoutReturn(new URL(request.url).searchParams.get("session_id"), await checkoutPayerOf(request)) });
  } catch (error) {
    if (isApiError(error)) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

export default function CheckoutCompletePage() {
  const { payment } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const confirming = payment.state === "confirming";
  useEffect(() => {
    if (!confirming) return;
    const timer = window.setInterval(revalidate, RECHECK_SECONDS * 1000);
    return () => window.clearInterval(timer);
  }, [confirming, revalidate]);
  const amount = payment.amountTotal !== null && payment.currency ? formatMoney(payment.amountTotal, payment.currency) : null;
  const back = payment.backLabel;
  return (
    <div className="card form-card" role="status" aria-live="polite">
      {confirming ? (
        <>
          {/* Without JavaScript the page looks again by itself; with it, the loader is asked again. */}
          <noscript>
            <meta httpEquiv="refresh" content={String(RECHECK_SECONDS)} />
          </noscript>
          <h1>Confirming your payment…</h1>
          <p>Your payment went through. We are waiting for the payment service to confirm it; this takes a few seconds.</p>
        </>
      ) : payment.state === "paid" ? (
        <>
          <h1>Paid</h1>
          <p>{amount ? `Thank you: we have your payment of ${amount}.` : "Thank you: we have your payment."}</p>
          {payment.mode === "subscription" ? <p>Welcome to VIP: every {PRODUCT_NAME} you start is included from now on.</p> : null}
          <a className="button" href={payment.backTo}>
            {back}
          </a>
        </>
      ) : (
        <>
          <h1>{payment.state === "expired" ? "This payment has expired" : "Not paid yet"}</h1>
          <p>Nothing was charged.</p>
          <a className="button" href={payment.backTo}>
            {back}
          </a>
        </>
      )}
    </div>
  );
}

const PAYMENT_NOT_FOUND = saidWithHint(
  `Open the payment again from the ${PRODUCT_NAME}'s checkout page: it says there whether it went through.`,
  "We couldn't find this payment",
);

export function ErrorBoundary() {
  return <PageError words={{ 400: PAYMENT_NOT_FOUND, 403: PAYMENT_NOT_FOUND, 404: PAYMENT_NOT_FOUND }} />;
}
