import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { POSTCARD_PAGE_REFUSALS } from "~/components/commerce/postcard-page-refusals";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatMoney } from "~/domain/commerce/money";
import { POSTCARD_TEMPLATES } from "~/domain/postcard";
import { DASHBOARD_TITLE, PRODUCT_NAME } from "~/domain/product";
import { env } from "~/lib/env.server";
import { readForm, type FormReply } from "~/lib/form.server";
import { asPageError, isApiError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { postcardsOfEvent } from "~/services/postcards/postcard-pages.server";
import { createPostcard } from "~/services/postcards/postcards.server";

export const meta: MetaFunction = () => [{ title: `Postcards — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const { event, cards } = await postcardsOfEvent(await getUser(request), params.uuid);
    return json({ uuid: event.uuid, cards, price: formatMoney(env().POSTCARD_PRICE, env().POSTCARD_CURRENCY.toUpperCase()) });
  } catch (error) {
    throw asPageError(error);
  }
}

/** A new draft with the chosen template, then on to its design page. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await getUser(request);
  const form = await readForm(request);
  try {
    const { event } = await postcardsOfEvent(user, params.uuid);
    const made = await createPostcard(user, { eventId: event.id, templateId: form.get("templateId") ?? "" });
    return redirect(`/e/${event.uuid}/postcards/${made.id}`);
  } catch (error) {
    if (isApiError(error)) return json<FormReply>({ formError: error.message, errors: error.fields }, { status: error.status });
    throw error;
  }
}

export default function PostcardsPage() {
  const { uuid, cards, price } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  return (
    <div className="card form-card stack">
      <h1>Printed postcards</h1>
      <p className="field-hint">{`A 6×4 in card with your message and a QR code to the video, printed and posted for ${price}.`}</p>
      {cards.length ? (
        <ul className="stack">
          {cards.map((card) => (
            <li key={card.id}>
              <Link to={`/e/${uuid}/postcards/${card.id}`}>{card.addressLines[0] ?? "A card with no address yet"}</Link>
              {" — "}
              <span className={card.status === "failed" ? "field-error" : undefined}>{card.statusLabel}</span>
              {card.trackingUrl ? (
                <>
                  {" "}
                  <a href={card.trackingUrl}>Track it</a>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>No postcards yet.</p>
      )}
      <FormMessages formError={reply?.formError} />
      <Form method="post" className="stack">
        <fieldset className="event-choices">
          <legend>Start a card</legend>
          {POSTCARD_TEMPLATES.map((template, i) => (
            <label key={template.id}>
              <input type="radio" name="templateId" value={template.id} defaultChecked={i === 0} /> {template.name}: {template.description}
            </label>
          ))}
        </fieldset>
        <SubmitButton pending="Starting…">Design a postcard</SubmitButton>
      </Form>
      <Link to={`/e/${uuid}`}>Back to the Chorus</Link>
    </div>
  );
}

/** A Chorus or a card this account does not manage is "not there": the page says which, inside the shell. */
export function ErrorBoundary() {
  return <PageError words={POSTCARD_PAGE_REFUSALS} back={{ to: "/dashboard", label: DASHBOARD_TITLE }} />;
}
