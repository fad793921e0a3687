import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { SubmitButton } from "~/components/ui/submit-button";
import { keptContributorPromoCode } from "~/lib/browser/contributor-promo";
import type { CheckoutPage } from "~/services/commerce/checkout-page.server";

type Cart = CheckoutPage["cart"];

function Gives({ lines }: { lines: readonly string[] }) {
  return (
    <ul className="checkout-gives">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/** The Chorus itself, always in a first cart, then the upsells and add-ons as boxes to tick. */
function Products({ cart, disabled }: { cart: Cart; disabled: boolean }) {
  return (
    <fieldset className="event-fieldset checkout-products">
      <legend>{cart.base ? "What your Chorus comes with" : "Add to your Chorus"}</legend>
      {cart.base ? (
        <div className="checkout-product">
          <label className="event-check">
            <input type="checkbox" checked disabled readOnly />
            <span>
              <strong>{cart.base.name}</strong> · {cart.lines[0]?.price}
            </span>
          </label>
          <Gives lines={cart.base.gives} />
        </div>
      ) : null}
      {cart.options.map((option) => (
        <div className="checkout-product" key={option.key}>
          <label className="event-check">
            <input type="checkbox" name="selected" value={option.key} defaultChecked={option.selected} disabled={disabled} />
            <span>
              <strong>{option.name}</strong> · {option.included ? "Included with your VIP membership" : option.price}
            </span>
          </label>
          <Gives lines={option.gives} />
        </div>
      ))}
    </fieldset>
  );
}

function Totals({ cart }: { cart: Cart }) {
  return (
    <table className="table checkout-totals">
      <caption className="visually-hidden">Your total</caption>
      <tbody>
        {cart.lines.map((line) => (
          <tr key={line.key}>
            <th scope="row">{line.name}</th>
            <td>
              {line.listPrice ? <s className="muted">{line.listPrice}</s> : null} {line.price}
            </td>
          </tr>
        ))}
        {cart.promotion ? (
          <tr>
            <th scope="row">
              Code {cart.promotion.code} ({cart.promotion.description})
            </th>
            <td>{cart.promotion.amount}</td>
          </tr>
        ) : null}
        {cart.tax ? (
          <tr>
            <th scope="row">{cart.tax}</th>
            <td>{cart.taxAmount}</td>
          </tr>
        ) : null}
        <tr className="checkout-totals__total">
          <th scope="row">Total</th>
          <td>{cart.total}</td>
        </tr>
      </tbody>
    </table>
  );
}

/**
 * The cart as one plain form: every button posts all of it, so a code applied or a country
 * chosen keeps the ticked boxes, with or without JavaScript.
 */
export function CheckoutForm({ page, errors }: { page: CheckoutPage; errors?: Record<string, string> }) {
  const { cart } = page;
  const promoInput = useRef<HTMLInputElement>(null);
  // A code this browser was given for contributing is offered, not applied: Apply uses it.
  useEffect(() => {
    const kept = keptContributorPromoCode();
    if (kept && !cart.promoCode && promoInput.current && !promoInput.current.value) promoInput.current.value = kept;
  }, [cart.promoCode]);
  const paid = page.paid ? (
    <section className="card stack">
      <h2>Paid — thank you</h2>
      {cart.status === "paid" ? <Totals cart={cart} /> : null}
      <p>
        {page.paid.invoiceNumber ? `Invoice ${page.paid.invoiceNumber}. ` : null}You can deliver your Chorus to the recipient and download
        it in full quality.
      </p>
      {page.nothingLeftToBuy ? <p>Your Chorus has everything we offer: there is nothing left to buy.</p> : null}
      <a className="button" href={`/e/${page.uuid}#deliver`}>
        Go to delivery
      </a>
    </section>
  ) : null;
  if (page.nothingLeftToBuy || cart.status === "paid") return paid;
  const promoError = errors?.promoCode ?? cart.promoCodeProblem ?? undefined;
  return (
    <>
      {paid}
      <Form method="post" className="card stack checkout-form">
        <input type="hidden" name="version" value={cart.version} />
        <Products cart={cart} disabled={false} />
        <div className="field">
          <label htmlFor="promoCode">Promo code</label>
          <div className="checkout-inline">
            <input
              ref={promoInput}
              id="promoCode"
              name="promoCode"
              defaultValue={cart.promoCode ?? ""}
              autoComplete="off"
              autoCapitalize="characters"
              aria-invalid={promoError ? true : undefined}
              aria-describedby={promoError ? "promoCode-error" : undefined}
            />
            <button className="button button--secondary" type="submit" name="intent" value="apply-promo">
              Apply
            </button>
            {cart.promoCode ? (
              <button className="button button--secondary" type="submit" name="intent" value="remove-promo">
                Remove
              </button>
            ) : null}
          </div>
          {promoError ? (
            <p className="field-error" id="promoCode-error" role="alert">
              {promoError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="billingCountry">Billing country</label>
          <select
            id="billingCountry"
            name="billingCountry"
            defaultValue={cart.billingCountry}
            aria-invalid={errors?.billingCountry ? true : undefined}
            aria-describedby="billingCountry-hint"
          >
            <option value="">Choose your country</option>
            {page.countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          <p className="field-hint" id="billingCountry-hint">
            Tax, where it applies, depends on your country.
          </p>
          {errors?.billingCountry ? <p className="field-error">{errors.billingCountry}</p> : null}
        </div>
        <p>
          <button className="button button--secondary" type="submit" name="intent" value="update">
            Update the total
          </button>
        </p>
        <Totals cart={cart} />
        {cart.nothingChosen ? (
          <p className="field-hint">Tick what you would like to add, then update the total.</p>
        ) : cart.free ? (
          <SubmitButton name="intent" value="confirm" pending="Confirming…">
            Confirm — no payment needed
          </SubmitButton>
        ) : (
          <SubmitButton name="intent" value="pay" pending="Opening the payment page…">
            {`Pay ${cart.total}`}
          </SubmitButton>
        )}
      </Form>
    </>
  );
}
