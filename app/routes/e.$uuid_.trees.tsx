import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { chorusPageRefusals } from "~/components/event/chorus-page-refusals";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { TreesIcon } from "~/components/ui/icons";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, readForm, type FormReply } from "~/lib/form.server";
import { asPageError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { rememberCheckout } from "~/services/payments/checkout-cookie.server";
import { plantTreesInput, startTreeContribution } from "~/services/trees/tree-contributions.server";
import { treesPageOf } from "~/services/trees/trees-page.server";

export const meta: MetaFunction = () => [{ title: `Trees in their honour — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const treesText = (count: number) => (count === 1 ? "1 tree" : `${count} trees`);

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return json(await treesPageOf(await getUser(request), params.uuid, keysFromUrl(new URL(request.url))), {
      headers: { "Cache-Control": "private, no-store" },
    });
  } catch (error) {
    throw asPageError(error);
  }
}

/** The planting form: on to the payment page, or back with what needs fixing. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await getUser(request);
  return handleForm(await readForm(request), plantTreesInput, async (fields) => {
    const { url, sessionId } = await startTreeContribution(user, params.uuid, fields, keysFromUrl(new URL(request.url)));
    return redirect(url, { headers: { "Set-Cookie": await rememberCheckout(request, sessionId) } });
  });
}

/** A whole number of trees the form takes, or null. */
function treeCount(typed: string | undefined, quantity: { min: number; max: number }) {
  const n = Number(typed);
  return typed && Number.isInteger(n) && n >= quantity.min && n <= quantity.max ? n : null;
}

/**
 * The running total before leaving the site: with the page's script it follows the count as it is
 * typed; without it, after a refused post it is worked out for the count sent, and the price of one
 * tree is always said beside the field.
 */
function TreesTotal({
  count,
  live,
  price,
  quantity,
}: {
  count: number | null;
  live: boolean;
  price: { unitAmount: number; currency: string };
  quantity: { min: number; max: number };
}) {
  if (count === null && !live) return null;
  return (
    <p className="trees-total">
      <output htmlFor="quantity" aria-live="polite">
        {count === null
          ? `Choose from ${quantity.min} to ${quantity.max} trees to see your total.`
          : `${treesText(count)} × ${formatMoney(price.unitAmount, price.currency)} = ${formatMoney(count * price.unitAmount, price.currency)}`}
      </output>
    </p>
  );
}

export default function TreesPage() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const values = reply?.values;
  const [typed, setTyped] = useState<string | null>(null);
  // Once the script runs, the total follows the field (which the browser may have refilled on a reload).
  useEffect(() => setTyped((document.getElementById("quantity") as HTMLInputElement | null)?.value ?? ""), []);
  const count = treeCount(typed ?? values?.quantity, page.quantity);
  return (
    <div className="stack">
      {page.certificate ? (
        <section className="card certificate stack" aria-labelledby="certificate-heading">
          <p className="field-hint">Certificate of planting</p>
          <h1 id="certificate-heading">
            <TreesIcon /> {`${treesText(page.certificate.trees)} planted in honour of ${page.recipientNames}`}
          </h1>
          <p>{`Planted by the people who made ${page.recipientNames} a ${PRODUCT_NAME}, as of ${page.certificate.date}.`}</p>
        </section>
      ) : null}
      <div className="card form-card stack">
        {page.certificate ? <h2>Plant more trees</h2> : <h1>{`Trees for ${page.recipientNames}`}</h1>}
        <p aria-live="polite">
          {page.trees > 0
            ? `${treesText(page.trees)} so far, from ${page.people} ${page.people === 1 ? "person" : "people"}.`
            : "No trees yet: be the first to plant one."}
        </p>
        {page.canPlant ? (
          <>
            <p className="field-hint">
              {`${formatMoney(page.price.unitAmount, page.price.currency)} a tree, so your total is ${formatMoney(page.price.unitAmount, page.price.currency)} × the number of trees; ${page.quantity.min} to ${page.quantity.max} at a time, planted by our reforestation partner.`}
            </p>
            <FormMessages formError={reply?.formError} />
            <Form method="post" className="stack" noValidate>
              <Field name="name" label="Your name" autoComplete="name" defaultValue={values?.name} error={reply?.errors?.name} />
              <Field
                name="email"
                label="Your e-mail, for the receipt"
                type="email"
                autoComplete="email"
                defaultValue={values?.email}
                error={reply?.errors?.email}
              />
              <Field
                name="quantity"
                label="How many trees"
                type="number"
                inputMode="numeric"
                min={page.quantity.min}
                max={page.quantity.max}
                defaultValue={values?.quantity ?? "1"}
                onChange={(event) => setTyped(event.currentTarget.value)}
                error={reply?.errors?.quantity}
              />
              <TreesTotal count={count} live={typed !== null} price={page.price} quantity={page.quantity} />
              <SubmitButton pending="Opening the payment page…">Plant and pay</SubmitButton>
            </Form>
          </>
        ) : null}
        <p>
          <a href={`/e/${page.uuid}`}>Back to the {PRODUCT_NAME}</a>
        </p>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={chorusPageRefusals(`The trees are open to the people the organiser shared the link with.`)} />;
}
