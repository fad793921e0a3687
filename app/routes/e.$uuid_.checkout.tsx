import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { CheckoutForm } from "~/components/commerce/checkout-form";
import { FormMessages } from "~/components/ui/field";
import { UnexpectedErrorCard } from "~/components/ui/unexpected-error";
import { PRODUCT_NAME } from "~/domain/product";
import { readForm } from "~/lib/form.server";
import { isApiError, asPageError } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { loadCheckoutPage, openCheckout, runCheckoutIntent } from "~/services/commerce/checkout-page.server";
import { formText } from "~/services/events/event-page-form.server";
import type { EventFormReply } from "~/services/events/event-page-view";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Checkout — ${data.page.headline} — ${PRODUCT_NAME}` : PRODUCT_NAME },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return json(
      { page: await loadCheckoutPage(await openCheckout(await getUser(request), params.uuid)) },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    throw asPageError(error);
  }
}

/** The page's one form, by the button pressed: update, apply or remove a code, pay, or confirm a free cart. */
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = formText(form, "intent");
  try {
    const outcome = await runCheckoutIntent(await openCheckout(await getUser(request), params.uuid), intent, form);
    if ("reply" in outcome) return json<EventFormReply>(outcome.reply, { status: outcome.status });
    return redirectWithCookies(outcome.redirect, outcome.toast ? [await toastHeader(outcome.toast)] : []);
  } catch (error) {
    if (!isApiError(error)) throw error;
    // What was typed stays in the field, so a refused code's typo can be seen.
    const values = form.has("promoCode") ? { promoCode: formText(form, "promoCode") } : undefined;
    return json<EventFormReply>({ intent, formError: error.message, errors: error.fields, values }, { status: error.status });
  }
}

export default function CheckoutPage() {
  const { page } = useLoaderData<typeof loader>();
  const reply = useActionData<EventFormReply>();
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

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status >= 500) {
    return <UnexpectedErrorCard error={error} />;
  }
  return (
    <div className="card empty-state">
      <h1>We couldn't open this checkout</h1>
      <p>
        {error.status === 404
          ? `There is no ${PRODUCT_NAME} at this address.`
          : error.status === 410
            ? `This ${PRODUCT_NAME} is unavailable.`
            : `Only the organiser of a ${PRODUCT_NAME} can pay for it. Log in with their account and try again.`}
      </p>
    </div>
  );
}
