import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, readForm, type FormReply } from "~/lib/form.server";
import { checkoutPayerOf } from "~/services/payments/checkout-cookie.server";
import { localCheckoutSession, payLocalCheckout } from "~/services/payments/local/hosted.server";

export const meta: MetaFunction = () => [{ title: `Pay — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const notFound = () => new Response("Not found", { status: 404 });

/** The local payment service's checkout page: what Stripe's hosted page is when no Stripe keys are set. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await localCheckoutSession(params.id ?? "", await checkoutPayerOf(request));
  if (!session) throw notFound();
  return json({ session });
}

const cardInput = z.object({
  email: z
    .email("Enter your e-mail.")
    .max(254)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  cardNumber: z.string().trim().min(1, "Enter your card number.").max(40),
  expiry: z.string().trim().min(1, "Enter the expiry date.").max(10),
  cvc: z.string().trim().min(1, "Enter the security code.").max(8),
});

export async function action({ request, params }: ActionFunctionArgs) {
  return handleForm(await readForm(request), cardInput, async (input) => {
    const outcome = await payLocalCheckout(params.id ?? "", input);
    if (!outcome) throw notFound();
    if (outcome.ok) return redirect(outcome.redirectTo);
    const reply: FormReply = outcome.field
      ? { errors: { [outcome.field]: outcome.message }, values: { email: input.email ?? "" } }
      : { formError: outcome.message };
    return json(reply, { status: 402 });
  });
}

export default function LocalCheckoutPage() {
  const { session } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const total = formatMoney(session.amountTotal, session.currency);
  const price = session.interval ? `${total} a ${session.interval}` : total;
  return (
    <div className="card form-card local-checkout">
      <p className="badge">Test payment: nothing is charged</p>
      {session.status === "complete" ? (
        <>
          <h1>Paid</h1>
          <p>This payment of {price} is complete.</p>
          <a className="button" href={session.successUrl}>
            Continue
          </a>
        </>
      ) : session.status === "expired" ? (
        <>
          <h1>This payment page has expired</h1>
          <p>Nothing was charged. Go back and start the payment again.</p>
          {session.cancelUrl ? <a href={session.cancelUrl}>Go back</a> : null}
        </>
      ) : (
        <>
          <h1>Pay {price}</h1>
          <ul className="local-checkout__lines">
            {session.lines.map((line, i) => (
              <li key={i}>
                <span>
                  {line.name}
                  {line.quantity > 1 ? ` × ${line.quantity}` : ""}
                </span>
                <span>{formatMoney(line.amount, session.currency)}</span>
              </li>
            ))}
            {session.discount ? (
              <>
                <li className="local-checkout__subtotal">
                  <span>Subtotal</span>
                  <span>{formatMoney(session.subtotal, session.currency)}</span>
                </li>
                <li className="local-checkout__discount">
                  <span>{session.discount.name}</span>
                  <span>{`−${formatMoney(session.discount.amount, session.currency)}`}</span>
                </li>
              </>
            ) : null}
            <li className="local-checkout__total">
              <span>Total</span>
              <span>{price}</span>
            </li>
          </ul>
          <FormMessages formError={reply?.formError} />
          {/* A whole-page post, as a hosted payment page's: paid, the payer comes back to the app's
              return page as from the real one, in a page load of its own, not a navigation inside
              this page's app (in which Remix was seen to lose the return page's route under load). */}
          <Form method="post" noValidate reloadDocument>
            {session.email ? (
              <p>
                Paying as <strong>{session.email}</strong>
              </p>
            ) : (
              <Field
                name="email"
                label="E-mail"
                type="email"
                autoComplete="email"
                required
                defaultValue={reply?.values?.email}
                error={reply?.errors?.email}
              />
            )}
            <Field
              name="cardNumber"
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="1234 1234 1234 1234"
              required
              hint="4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined."
              error={reply?.errors?.cardNumber}
            />
            <div className="row">
              <Field
                name="expiry"
                label="Expiry (MM / YY)"
                autoComplete="cc-exp"
                placeholder="MM / YY"
                required
                error={reply?.errors?.expiry}
              />
              <Field
                name="cvc"
                label="Security code"
                inputMode="numeric"
                autoComplete="cc-csc"
                placeholder="123"
                required
                error={reply?.errors?.cvc}
              />
            </div>
            <SubmitButton pending="Paying…">Pay {price}</SubmitButton>
          </Form>
          {session.cancelUrl ? (
            <p>
              <a href={session.cancelUrl}>Cancel and go back</a>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={{
        404: {
          title: "There is no such payment page",
          text: "It may have expired, or belong to another account. Start the payment again from the page you came from.",
        },
      }}
    />
  );
}
