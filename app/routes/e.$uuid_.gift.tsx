import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { chorusPageRefusals } from "~/components/event/chorus-page-refusals";
import { GiftPot } from "~/components/event/event-gift-pot";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, readForm, type FormReply } from "~/lib/form.server";
import { asPageError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { keysFromUrl } from "~/services/events/event-access.server";
import { chipInInput, giftToJoinView, startGiftContribution } from "~/services/gift-cards/contributions.server";
import { rememberCheckout } from "~/services/payments/checkout-cookie.server";

export const meta: MetaFunction = () => [{ title: `Chip in for the gift — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return json(await giftToJoinView(await getUser(request), params.uuid, keysFromUrl(new URL(request.url))), {
      headers: { "Cache-Control": "private, no-store" },
    });
  } catch (error) {
    throw asPageError(error);
  }
}

/** The chip-in form: on to the payment page, or back with what needs fixing. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await getUser(request);
  return handleForm(await readForm(request), chipInInput, async (fields) => {
    const { url, sessionId } = await startGiftContribution(user, params.uuid, fields, keysFromUrl(new URL(request.url)));
    return redirect(url, { headers: { "Set-Cookie": await rememberCheckout(request, sessionId) } });
  });
}

export default function ChipInPage() {
  const { uuid, gift } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const values = reply?.values;
  return (
    <div className="card form-card stack">
      <h1>{`Chip in for a ${gift.productName} gift card`}</h1>
      <GiftPot gift={gift} />
      <p className="field-hint">
        {`Everyone's share goes on one card, sent to the recipient with the video. `}
        {gift.roomLeft >= gift.minAmount
          ? `Between ${formatMoney(gift.minAmount, gift.currency)} and ${formatMoney(gift.roomLeft, gift.currency)}.`
          : "There is no room left on the card for now."}
        {gift.heldAmount > 0
          ? ` ${formatMoney(gift.heldAmount, gift.currency)} more is held by payments in progress, and is free again if they are not completed.`
          : ""}
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
          name="amount"
          label={`Amount (${gift.currency})`}
          inputMode="decimal"
          defaultValue={values?.amount}
          error={reply?.errors?.amount}
        />
        <SubmitButton pending="Opening the payment page…">Chip in and pay</SubmitButton>
      </Form>
      <p>
        <a href={`/e/${uuid}`}>Back to the {PRODUCT_NAME}</a>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={chorusPageRefusals(`The group gift is open to the people the organiser shared its link with.`)} />;
}
