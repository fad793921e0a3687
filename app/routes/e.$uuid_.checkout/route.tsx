import type { MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CheckoutForm } from "~/components/commerce/checkout-form";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { DASHBOARD_TITLE, PRODUCT_NAME } from "~/domain/product";
import { action } from "./action.server";
import { loader } from "./loader.server";
import type { CheckoutPageReply } from "./view";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Checkout — ${data.page.headline} — ${PRODUCT_NAME}` : PRODUCT_NAME },
  { name: "robots", content: "noindex" },
];

export { action, loader };

export default function CheckoutPage() {
  const { page } = useLoaderData<typeof loader>();
  const reply = useActionData<CheckoutPageReply>();
  return (
    <div className="checkout-page stack">
      <header className="event-head">
        <p>
          <Link to={`/e/${page.uuid}`}>← Back to the Chorus</Link>
        </p>
        <h1>Checkout</h1>
        <p className="muted">{page.headline}</p>
      </header>
      {reply && !reply.ok && !reply.errors?.promoCode ? <FormMessages formError={reply.formError} /> : null}
      <CheckoutForm page={page} errors={reply?.errors} values={reply?.values} />
      {page.byPost.length ? (
        <section className="card stack" aria-labelledby="by-post-heading">
          <h2 id="by-post-heading">Also by post</h2>
          <p className="field-hint">Made from the published video and posted wherever you like; paid on its own page, with postage.</p>
          <ul className="stack">
            {page.byPost.map((offer) => (
              <li key={offer.kind}>
                <Link to={offer.href}>{`${offer.name}, ${offer.price} a copy`}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

const notOpened = (text: string) => ({ title: "We couldn't open this checkout", text });
const ORGANISER_ONLY = notOpened(`Only the organiser of a ${PRODUCT_NAME} can pay for it. Log in with their account and try again.`);

export function ErrorBoundary() {
  return (
    <PageError
      words={{
        401: ORGANISER_ONLY,
        403: ORGANISER_ONLY,
        404: notOpened(`There is no ${PRODUCT_NAME} at this address.`),
        410: notOpened(`This ${PRODUCT_NAME} is unavailable.`),
      }}
      back={{ to: "/dashboard", label: DASHBOARD_TITLE }}
    />
  );
}
