import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { POSTCARD_PAGE_REFUSALS } from "~/components/commerce/postcard-page-refusals";
import { PageError } from "~/components/shell/page-error";
import { FormMessages, TextAreaField } from "~/components/ui/field";
import { PostalAddressFields } from "~/components/ui/postal-address-fields";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatMoney } from "~/domain/commerce/money";
import { POSTCARD_MESSAGE_MAX, POSTCARD_TEMPLATES } from "~/domain/postcard";
import { DASHBOARD_TITLE, PRODUCT_NAME } from "~/domain/product";
import { readForm, type FormReply } from "~/lib/form.server";
import { asPageError, isApiError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { postcardPage, postcardPayloadOf } from "~/services/postcards/postcard-pages.server";
import { changePostcard, checkoutPostcard } from "~/services/postcards/postcards.server";

export const meta: MetaFunction = () => [{ title: `Your postcard — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return json(await postcardPage(await getUser(request), params.uuid, params.id, new URL(request.url)), {
      headers: { "Cache-Control": "private, no-store" },
    });
  } catch (error) {
    throw asPageError(error);
  }
}

/** Save the design (the preview is drawn again), or pay: on to the payment page. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await getUser(request);
  const form = await readForm(request);
  const values = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
  try {
    const { uuid } = await postcardPage(user, params.uuid, params.id);
    if (form.get("intent") === "pay") {
      const { url } = await checkoutPostcard(user, params.id);
      return redirect(url);
    }
    await changePostcard(user, params.id, postcardPayloadOf(form));
    return redirect(`/e/${uuid}/postcards/${params.id}?saved=1`);
  } catch (error) {
    if (isApiError(error)) return json<FormReply>({ formError: error.message, errors: error.fields, values }, { status: error.status });
    throw error;
  }
}

export default function PostcardPage() {
  const { uuid, card, countries, saved } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const values = reply?.values;
  const address = card.address;
  return (
    <div className="card form-card stack">
      <h1>Your postcard</h1>
      <p>
        <img
          src={card.previewUrls.front}
          alt="The front of the card, as it will be printed"
          width={450}
          height={306}
          style={{ width: "100%", height: "auto" }}
        />
      </p>
      <p>
        <img
          src={card.previewUrls.back}
          alt="The back of the card, as it will be printed"
          width={450}
          height={306}
          style={{ width: "100%", height: "auto" }}
        />
      </p>
      <p>
        <a href={card.previewUrls.proof}>Open the print proof (PDF, 6.25×4.25 in)</a>
      </p>
      <p role="status">
        {card.statusLabel}
        {card.trackingUrl ? (
          <>
            {" "}
            <a href={card.trackingUrl}>Track it</a>
          </>
        ) : null}
      </p>
      {card.failure ? <p className="form-error">{card.failure}</p> : null}
      <FormMessages formError={reply?.formError} message={saved ? "Saved. The preview shows your changes." : undefined} />
      {card.editable ? (
        <>
          <Form method="post" className="stack" noValidate>
            <fieldset className="event-choices">
              <legend>Front</legend>
              {POSTCARD_TEMPLATES.map((template) => (
                <label key={template.id}>
                  <input
                    type="radio"
                    name="templateId"
                    value={template.id}
                    defaultChecked={(values?.templateId ?? card.templateId) === template.id}
                  />{" "}
                  {template.name}
                </label>
              ))}
            </fieldset>
            <TextAreaField
              name="message"
              label="Message"
              rows={6}
              maxLength={POSTCARD_MESSAGE_MAX}
              defaultValue={values?.message ?? card.message}
              error={reply?.errors?.message}
              hint="What does not fit on the card is named when you save."
            />
            <fieldset className="stack">
              <legend>Address</legend>
              <PostalAddressFields prefix="address." values={values} errors={reply?.errors} saved={address} countries={countries} />
            </fieldset>
            <SubmitButton pending="Saving…" name="intent" value="save">
              Save and preview
            </SubmitButton>
          </Form>
          <Form method="post">
            <SubmitButton pending="Opening the payment…" name="intent" value="pay">
              {`Pay ${formatMoney(card.amount, card.currency.toUpperCase())} and post it`}
            </SubmitButton>
          </Form>
        </>
      ) : null}
      {card.status === "checkout" ? (
        // Left the payment page before paying: the same page opens again until it expires.
        <Form method="post">
          <SubmitButton pending="Opening the payment…" name="intent" value="pay">
            Go back to the payment page
          </SubmitButton>
        </Form>
      ) : null}
      <Link to={`/e/${uuid}/postcards`}>All postcards of this Chorus</Link>
    </div>
  );
}

/** A Chorus or a card this account does not manage is "not there": the page says which, inside the shell. */
export function ErrorBoundary() {
  return <PageError words={POSTCARD_PAGE_REFUSALS} back={{ to: "/dashboard", label: DASHBOARD_TITLE }} />;
}
