import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { chorusPageRefusals } from "~/components/event/chorus-page-refusals";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { FilmIcon, GiftIcon } from "~/components/ui/icons";
import { PostalAddressFields } from "~/components/ui/postal-address-fields";
import { SubmitButton } from "~/components/ui/submit-button";
import { MAX_COPIES } from "~/domain/commerce/mail-orders";
import { DASHBOARD_TITLE, PRODUCT_NAME } from "~/domain/product";
import { readForm, type FormReply } from "~/lib/form.server";
import { asPageError, isApiError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { mailOrderPage, payForMailOrder, startMailOrderFromPage, type MailOrderView } from "~/services/mail-orders/orders.server";

// A DVD of the video, or a printed photo book of its stills, posted to an address
// (docs/decisions/029-dvds-and-keepsakes-by-post.md): the order form, then each order's status.

export const meta: MetaFunction = () => [{ title: `A DVD or a photo book — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return json(await mailOrderPage(await getUser(request), params.uuid, new URL(request.url)), {
      headers: { "Cache-Control": "private, no-store" },
    });
  } catch (error) {
    throw asPageError(error);
  }
}

/** The order form, or Pay on an order not paid yet: on to the payment page, or back with what needs fixing. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await getUser(request);
  const form = await readForm(request);
  const values = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
  try {
    if (values.intent === "pay") return redirect(await payForMailOrder(user, params.uuid, values));
    const { paymentUrl } = await startMailOrderFromPage(user, params.uuid, values);
    return redirect(paymentUrl);
  } catch (error) {
    if (isApiError(error) && error.status !== 404) {
      return json<FormReply>({ formError: error.message, errors: error.fields, values }, { status: error.status });
    }
    throw asPageError(error);
  }
}

export default function MailOrderPage() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  // What was typed when the form comes back refused; otherwise the organiser's last address.
  const values = reply?.values ?? (page.address ? { ...page.address } : undefined);
  const errors = reply?.errors ?? {};
  return (
    <div className="stack">
      <div className="card form-card stack">
        <h1>A DVD or a photo book, by post</h1>
        <p className="field-hint">
          Of {page.title ? `“${page.title}”` : `your ${PRODUCT_NAME}`}, made from the published video and posted wherever you like.
        </p>
        {!page.published ? (
          <p className="empty-note">Publish the video first: the DVD and the photo book are made from it.</p>
        ) : (
          <>
            <FormMessages formError={reply?.formError} />
            <Form method="post" className="stack" noValidate>
              <fieldset className="event-choices">
                <legend>What would you like?</legend>
                {page.products.map((product) => (
                  <label key={product.kind}>
                    <input type="radio" name="kind" value={product.kind} defaultChecked={(values?.kind ?? page.chosen) === product.kind} />
                    {product.kind === "dvd" ? <FilmIcon /> : <GiftIcon />}
                    <span>
                      <strong>{product.name}</strong>, {product.price} each
                      <br />
                      <span className="field-hint">{product.gives.join(". ")}.</span>
                    </span>
                  </label>
                ))}
                {errors.kind ? <p className="field-error">{errors.kind}</p> : null}
              </fieldset>
              <Field
                name="quantity"
                label="Copies"
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_COPIES}
                defaultValue={values?.quantity ?? "1"}
                error={errors.quantity}
              />
              <PostalAddressFields
                values={values}
                errors={errors}
                countries={page.countries.map((c) => ({ value: c.code, label: c.name }))}
              />
              <details>
                <summary>Postage</summary>
                <ul>
                  {page.postage.map((zone) => (
                    <li key={zone.name}>
                      {zone.name}: {zone.first} for the first copy, {zone.more} for each one after it
                    </li>
                  ))}
                </ul>
              </details>
              <SubmitButton pending="Opening the payment page…">Order and pay</SubmitButton>
            </Form>
          </>
        )}
      </div>
      {page.orders.length ? <OrderStatus orders={page.orders} /> : null}
      <p>
        <a href={`/e/${page.uuid}`}>Back to the {PRODUCT_NAME}</a> · <a href={`/e/${page.uuid}/checkout`}>Checkout</a>
      </p>
    </div>
  );
}

function OrderStatus({ orders }: { orders: MailOrderView[] }) {
  return (
    <section className="card stack" aria-labelledby="orders-heading">
      <h2 id="orders-heading">Your orders</h2>
      <ul className="stack">
        {orders.map((order) => (
          <li key={order.id}>
            <strong>
              {order.quantity} × {order.product}
            </strong>{" "}
            ({order.total}): <span className={order.status === "failed" ? "field-error" : undefined}>{order.statusText}</span>
            {order.trackingNumber ? (
              <>
                {" "}
                — tracking <strong>{order.trackingNumber}</strong>
              </>
            ) : null}
            {order.onItsWay && (order.expectedBy || order.trackingUrl) ? (
              <>
                <br />
                {order.expectedBy ? `Expected by ${order.expectedBy}. ` : null}
                {order.trackingUrl ? <a href={order.trackingUrl}>Track it</a> : null}
              </>
            ) : null}
            <br />
            <span className="field-hint">To {order.addressLines.join(", ")}</span>
            {order.status === "failed" && order.failure ? (
              <p className="field-hint">{order.failure} We will try again or refund you.</p>
            ) : null}
            {order.status === "abandoned" || order.status === "awaiting_payment" ? (
              <Form method="post">
                <input type="hidden" name="orderId" value={order.id} />
                <SubmitButton pending="Opening the payment page…" name="intent" value="pay">
                  {order.status === "abandoned" ? `Pay again (${order.total})` : `Go to the payment page (${order.total})`}
                </SubmitButton>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={chorusPageRefusals(`Only the organiser of a ${PRODUCT_NAME} orders its copies by post.`)}
      back={{ to: "/dashboard", label: DASHBOARD_TITLE }}
    />
  );
}
