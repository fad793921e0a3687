import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { findOccasion, webAppOccasions } from "~/domain/occasions";
import { PRODUCT_NAME, START_TITLE } from "~/domain/product";
import { getUser } from "~/lib/auth.server";

export const meta: MetaFunction = () => [{ title: `${START_TITLE} — ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const chosen = findOccasion(url.searchParams.get("occasion") ?? "");
  return json({
    loggedIn: !!(await getUser(request)),
    chosen: chosen?.webApp ? { type: chosen.type, label: chosen.label, emoji: chosen.emoji, isFree: chosen.isFree } : null,
    occasions: webAppOccasions().map((o) => ({ type: o.type, label: o.label, emoji: o.emoji })),
  });
}

/** Step one of starting a Chorus: the occasion. The choice travels in the URL, so it works without JavaScript. */
export default function StartPage() {
  const { occasions, chosen, loggedIn } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <h1>{START_TITLE}</h1>
      <Form method="get" className="card">
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend>
            <h2>What's the occasion?</h2>
          </legend>
          <ul className="occasion-grid">
            {occasions.map((o) => (
              <li key={o.type}>
                <label>
                  <input type="radio" name="occasion" value={o.type} defaultChecked={chosen?.type === o.type} required />
                  <span aria-hidden="true">{o.emoji}</span> {o.label}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <p>
          <button className="button" type="submit">
            Continue
          </button>
        </p>
      </Form>
      {chosen ? (
        <section className="card" aria-live="polite">
          <h2>
            {chosen.emoji} {chosen.label}
          </h2>
          <p>
            {chosen.isFree ? `Get well ${PRODUCT_NAME}es are free. ` : ""}
            Next you'll add who it's for, a deadline and the questions contributors see.
            {loggedIn ? "" : " You can log in or create an account at the end without losing anything."}
          </p>
        </section>
      ) : null}
    </div>
  );
}
